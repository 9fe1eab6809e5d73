import { useState } from 'preact/hooks';
import type { TaskView } from '../../types';
import { Icon } from '../Icon';
import { CommitInput } from './CommitInput';
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

/** The card's metadata as key/value rows: edit a value or key in place, add a row, remove one. */
export function MetadataEditor({ metadata, onChange }: { metadata: Record<string, unknown>; onChange(next: Record<string, unknown>): void }) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const entries = Object.entries(metadata);

  function renameKey(from: string, to: string) {
    const name = to.trim();
    if (!name || name === from) return;
    if (name in metadata) return setProblem(`“${name}” is already a key.`);
    setProblem(null);
    onChange(Object.fromEntries(entries.map(([k, v]) => (k === from ? [name, v] : [k, v]))));
  }

  function add(e: Event) {
    e.preventDefault();
    const name = key.trim();
    if (!name) return setProblem('Give the new entry a key.');
    if (name in metadata) return setProblem(`“${name}” is already a key: edit its value above.`);
    setProblem(null);
    onChange({ ...metadata, [name]: parseValue(value) });
    setKey('');
    setValue('');
  }

  return (
    <div class="metadata-editor" data-testid="metadata-editor">
      {entries.length === 0 && <p class="field-hint">No metadata yet.</p>}
      {entries.map(([k, v]) => (
        <div key={k} class="metadata-row" data-meta-key={k}>
          <CommitInput class="input metadata-key" label={`Key ${k}`} value={k} onCommit={(to) => renameKey(k, to)} />
          <CommitInput class="input metadata-value" label={`Value of ${k}`} value={showValue(v)} onCommit={(text) => onChange({ ...metadata, [k]: parseValue(text) })} />
          <button type="button" class="icon-btn" aria-label={`Remove ${k}`} title="Remove" onClick={() => onChange(Object.fromEntries(entries.filter(([other]) => other !== k)))}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
      <form class="metadata-row metadata-new" onSubmit={add}>
        <input class="input metadata-key" name="metaKey" placeholder="key" aria-label="New metadata key" value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} />
        <input class="input metadata-value" name="metaValue" placeholder="value" aria-label="New metadata value" value={value} onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
        <button type="submit" class="icon-btn" aria-label="Add metadata entry" title="Add">
          <Icon name="plus" size={14} />
        </button>
      </form>
      {problem && <p class="field-error" role="alert">{problem}</p>}
    </div>
  );
}

/** The metadata section of the drawer. The whole map is saved on each change, so a quick second edit builds on the first. */
export function MetadataSection({ task, save }: { task: TaskView; save(patch: Record<string, unknown>): Promise<TaskView | undefined> }) {
  const [metadata, choose] = usePending(task.metadata);
  return (
    <section class="drawer-section" aria-label="Metadata">
      <h3 class="section-title">Metadata</h3>
      <MetadataEditor metadata={metadata} onChange={(next) => choose(next, save({ metadata: next }))} />
    </section>
  );
}
