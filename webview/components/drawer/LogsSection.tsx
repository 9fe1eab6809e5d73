import { useEffect, useState } from 'preact/hooks';
import { useController } from '../../context';
import { dateTime } from '../../format';
import type { LogEntry, TaskView } from '../../types';
import { ConfirmButton } from '../ConfirmButton';
import { MarkdownView } from './ContentSection';

/** The card's log: append-only lines from people and tools; a line can be added and the log cleared. */
export function LogsSection({
  task,
  version,
}: {
  task: TaskView;
  /** Changes whenever the card changed elsewhere. */ version: number;
}) {
  const ctrl = useController();
  const [entries, setEntries] = useState<LogEntry[] | null>(null);
  const [text, setText] = useState('');

  async function reload() {
    const list = await ctrl.api.listLogs(task.boardId, task.id).catch(() => null);
    if (list) setEntries(list);
  }

  useEffect(() => void reload(), [task.id, version]);

  async function add(e: Event) {
    e.preventDefault();
    if (!text.trim()) return;
    if (await ctrl.attempt(() => ctrl.api.addLog(task.boardId, task.id, text))) {
      setText('');
      await reload();
    }
  }

  async function clear() {
    if (await ctrl.attempt(async () => (await ctrl.api.clearLogs(task.boardId, task.id), true))) await reload();
  }

  return (
    <section class="drawer-section" aria-label="Log">
      <div class="drawer-section-head">
        <h3 class="section-title">
          Log {entries && entries.length > 0 && <span class="count">{entries.length}</span>}
        </h3>
        {entries && entries.length > 0 && (
          <ConfirmButton
            class="btn btn-sm btn-ghost"
            question="Clear the whole log?"
            confirmLabel="Clear log"
            onConfirm={() => void clear()}
          >
            Clear
          </ConfirmButton>
        )}
      </div>
      {entries === null ? (
        <p class="field-hint">Loading…</p>
      ) : entries.length === 0 ? (
        <p class="field-hint">No log entries.</p>
      ) : (
        <ol class="log-list" data-testid="log-list">
          {entries.map((entry, i) => (
            <li key={i} class="log-entry">
              <span class="log-meta" title={entry.timestamp}>
                {dateTime(entry.timestamp)}
                {entry.source && entry.source !== 'default' ? ` · ${entry.source}` : ''}
              </span>
              <MarkdownView text={entry.text} class="log-text" />
            </li>
          ))}
        </ol>
      )}
      <form class="drawer-inline" onSubmit={(e) => void add(e)}>
        <input
          class="input"
          name="log"
          placeholder="Add a log line…"
          aria-label="New log line"
          value={text}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
        />
        <button type="submit" class="btn btn-sm" disabled={!text.trim()}>
          Add
        </button>
      </form>
    </section>
  );
}
