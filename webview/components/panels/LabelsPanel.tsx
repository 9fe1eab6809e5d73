import { useEffect, useRef, useState } from 'preact/hooks';
import { useAppState, useController } from '../../context';
import { textOn } from '../../format';
import type { LabelDefinition } from '../../types';
import { ConfirmButton } from '../ConfirmButton';
import { Icon } from '../Icon';
import { Sheet } from '../Sheet';

const NEW_LABEL_COLOR = '#3b82f6';

/**
 * A color input that reports once the user has picked (the native `change` event), not on every
 * step of dragging through the picker: Preact maps `onChange` on inputs to `input` events.
 */
function ColorInput({ value, label, onPick }: { value: string; label: string; onPick(color: string): void }) {
  const el = useRef<HTMLInputElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  useEffect(() => {
    const input = el.current;
    if (!input) return;
    const listener = () => pick.current(input.value);
    input.addEventListener('change', listener);
    return () => input.removeEventListener('change', listener);
  }, []);
  return <input ref={el} type="color" class="swatch-custom" aria-label={label} value={value} />;
}

/** One label definition: color, name (rename cascades to every card on the server), group, delete. */
function LabelRow({ name, definition, usage }: { name: string; definition: LabelDefinition; usage: number }) {
  const ctrl = useController();
  const [newName, setNewName] = useState(name);
  const [group, setGroup] = useState(definition.group ?? '');
  // Enter saves, and so does leaving a field: the blur that follows an Enter (or the row's removal
  // after a rename) must not save the same change twice.
  const busy = useRef(false);

  async function save(color: string, nextGroup: string) {
    const saved = await ctrl.attempt(() => ctrl.api.putLabel(name, color, nextGroup.trim() || undefined));
    if (saved) ctrl.store.set({ labels: saved });
  }

  /** Saves what changed: the group first (under the old name), then the name. */
  async function commit() {
    if (busy.current) return;
    busy.current = true;
    try {
      if (group.trim() !== (definition.group ?? '')) await save(definition.color, group);
      await rename();
    } finally {
      busy.current = false;
    }
  }

  async function rename() {
    const target = newName.trim();
    if (!target || target === name) return setNewName(name);
    const saved = await ctrl.attempt(() => ctrl.api.renameLabel(name, target));
    if (!saved) return setNewName(name);
    ctrl.store.set({ labels: saved });
    await ctrl.refreshTasks();
  }

  async function remove() {
    if ((await ctrl.attempt(() => ctrl.api.deleteLabel(name))) === undefined) return;
    await Promise.all([ctrl.refreshLabels(), ctrl.refreshTasks()]);
  }

  return (
    <div class="list-row label-row" data-label={name}>
      <ColorInput label={`Color of ${name}`} value={definition.color} onPick={(color) => void save(color, group)} />
      <span class="label-chip" style={{ background: definition.color, color: textOn(definition.color) }}>
        {name}
      </span>
      <form
        class="grow label-fields"
        onSubmit={(e) => {
          e.preventDefault();
          void commit();
        }}
      >
        <input
          class="input input-sm label-name-input"
          aria-label={`Name of ${name}`}
          name="name"
          value={newName}
          onInput={(e) => setNewName((e.target as HTMLInputElement).value)}
          onBlur={() => void commit()}
        />
        <input
          class="input input-sm label-group-input"
          aria-label={`Group of ${name}`}
          name="group"
          placeholder="group"
          value={group}
          onInput={(e) => setGroup((e.target as HTMLInputElement).value)}
          onBlur={() => void commit()}
        />
        {/* Enter in either field saves both. */}
        <button type="submit" hidden />
      </form>
      <span class="chip subtle" title="cards carrying this label">
        {usage}
      </span>
      <ConfirmButton
        class="icon-btn"
        question={usage ? `Remove from ${usage} card(s)?` : 'Delete?'}
        confirmLabel="Delete label"
        onConfirm={() => void remove()}
      >
        <Icon name="trash" size={14} />
      </ConfirmButton>
    </div>
  );
}

function AddLabel() {
  const ctrl = useController();
  const [name, setName] = useState('');
  const [color, setColor] = useState(NEW_LABEL_COLOR);
  const [group, setGroup] = useState('');

  async function submit(event: Event) {
    event.preventDefault();
    if (!name.trim()) return;
    const saved = await ctrl.attempt(() => ctrl.api.putLabel(name.trim(), color, group.trim() || undefined));
    if (!saved) return;
    ctrl.store.set({ labels: saved });
    setName('');
    setGroup('');
  }

  return (
    <form class="list-row add-label" onSubmit={submit} data-testid="add-label">
      <input
        type="color"
        class="swatch-custom"
        aria-label="New label color"
        value={color}
        onInput={(e) => setColor((e.target as HTMLInputElement).value)}
      />
      <input
        class="input input-sm grow"
        name="name"
        aria-label="New label name"
        placeholder="New label"
        value={name}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
      <input
        class="input input-sm"
        name="group"
        aria-label="New label group"
        placeholder="group (optional)"
        value={group}
        onInput={(e) => setGroup((e.target as HTMLInputElement).value)}
      />
      <button type="submit" class="btn btn-primary btn-sm" disabled={!name.trim()}>
        Add
      </button>
    </form>
  );
}

/** The workspace's label definitions, by group. */
export function LabelsPanel() {
  const ctrl = useController();
  const { labels, tasks } = useAppState();
  const usage = new Map<string, number>();
  for (const task of Object.values(tasks))
    for (const label of task.labels) usage.set(label, (usage.get(label) ?? 0) + 1);
  const names = Object.keys(labels).sort(
    (a, b) => (labels[a].group ?? '~').localeCompare(labels[b].group ?? '~') || a.localeCompare(b),
  );
  return (
    <Sheet title="Labels" onClose={() => ctrl.store.set({ panel: null })} testId="labels-panel">
      <section class="form-section">
        <p class="field-hint">
          Renaming or deleting a label changes every card that carries it, on this board and the others.
        </p>
        <div class="list-rows">
          {names.map((name) => (
            // Keyed by name and color so a change made elsewhere resets the row's inputs.
            <LabelRow
              key={`${name}|${labels[name].group ?? ''}`}
              name={name}
              definition={labels[name]}
              usage={usage.get(name) ?? 0}
            />
          ))}
          {names.length === 0 && <p class="field-hint">No labels defined yet.</p>}
        </div>
      </section>
      <section class="form-section">
        <h3 class="section-title">Add a label</h3>
        <AddLabel />
      </section>
    </Sheet>
  );
}
