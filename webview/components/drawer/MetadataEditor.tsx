import { useState } from 'preact/hooks';
import type { TaskView } from '../../types';
import { Icon } from '../Icon';
import { CommitInput } from './CommitInput';
import { flattenMetadata, pathProblem, removeAtPath, setAtPath } from './metadataPaths';
import { usePending } from './usePending';

/** Text as people type it; numbers, true/false, lists and objects written as JSON keep their type. */
export function parseValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return typeof parsed === 'string' ? text : parsed;
  } catch {
    return text;
  }
}

export function showValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The card's metadata as key/value rows, nested maps as key paths (`links.jira`): edit a value or a
 * path in place, add a row, remove one. Values that read as JSON (numbers, true/false) keep that type.
 */
export function MetadataEditor({
  metadata,
  onChange,
}: {
  metadata: Record<string, unknown>;
  onChange(next: Record<string, unknown>): void;
}) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const rows = flattenMetadata(metadata);

  function renameKey(from: string, to: string, current: unknown) {
    const name = to.trim();
    if (!name || name === from) return;
    const without = removeAtPath(metadata, from);
    const reason = pathProblem(without, name);
    if (reason) return setProblem(reason);
    setProblem(null);
    onChange(setAtPath(without, name, current));
  }

  function add(e: Event) {
    e.preventDefault();
    const name = key.trim();
    if (!name) return setProblem('Give the new entry a key (a path like links.jira nests it).');
    const reason = pathProblem(metadata, name);
    if (reason) return setProblem(reason);
    setProblem(null);
    onChange(setAtPath(metadata, name, parseValue(value)));
    setKey('');
    setValue('');
  }

  return (
    <div class="metadata-editor" data-testid="metadata-editor">
      {rows.length === 0 && <p class="field-hint">No metadata yet.</p>}
      {rows.map(([k, v]) => (
        <div key={k} class="metadata-row" data-meta-key={k}>
          <CommitInput class="input metadata-key" label={`Key ${k}`} value={k} onCommit={(to) => renameKey(k, to, v)} />
          <CommitInput
            class="input metadata-value"
            label={`Value of ${k}`}
            value={showValue(v)}
            onCommit={(text) => onChange(setAtPath(metadata, k, parseValue(text)))}
          />
          <button
            type="button"
            class="icon-btn"
            aria-label={`Remove ${k}`}
            title="Remove"
            onClick={() => onChange(removeAtPath(metadata, k))}
          >
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
      <form class="metadata-row metadata-new" onSubmit={add}>
        <input
          class="input metadata-key"
          name="metaKey"
          placeholder="key"
          title="A key, or a path like links.jira to nest it"
          aria-label="New metadata key"
          value={key}
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
        />
        <input
          class="input metadata-value"
          name="metaValue"
          placeholder="value"
          aria-label="New metadata value"
          value={value}
          onInput={(e) => setValue((e.target as HTMLInputElement).value)}
        />
        <button type="submit" class="icon-btn" aria-label="Add metadata entry" title="Add">
          <Icon name="plus" size={14} />
        </button>
      </form>
      {problem && (
        <p class="field-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** The metadata section of the drawer. The whole map is saved on each change, so a quick second edit builds on the first. */
export function MetadataSection({
  task,
  save,
}: {
  task: TaskView;
  save(patch: Record<string, unknown>): Promise<TaskView | undefined>;
}) {
  const [metadata, choose] = usePending(task.metadata);
  return (
    <section class="drawer-section" aria-label="Metadata">
      <h3 class="section-title">Metadata</h3>
      <MetadataEditor metadata={metadata} onChange={(next) => choose(next, save({ metadata: next }))} />
    </section>
  );
}
