import { useState } from 'preact/hooks';
import { useController } from '../context';
import { slugOf } from '../format';
import { Icon } from './Icon';

/** "Add column" at the end of the board. */
export function AddColumn() {
  const ctrl = useController();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');

  async function submit(event: Event) {
    event.preventDefault();
    const boardId = ctrl.state.boardId;
    if (!boardId || !name.trim()) return;
    const taken = new Set(ctrl.state.board?.columns.map((c) => c.id));
    let id = slugOf(name);
    for (let n = 2; taken.has(id); n++) id = `${slugOf(name)}-${n}`;
    if ((await ctrl.attempt(() => ctrl.api.addColumn(boardId, { id, name: name.trim() }))) !== undefined) {
      setName('');
      setOpen(false);
      await ctrl.refreshBoard();
    }
  }

  if (!open) {
    return (
      <button type="button" class="add-column" title="Add a column" onClick={() => setOpen(true)}>
        <Icon name="plus" />
        <span class="add-column-text">Add column</span>
      </button>
    );
  }
  return (
    <form class="add-column is-open" onSubmit={submit}>
      <input
        class="input"
        placeholder="Column name"
        aria-label="New column name"
        value={name}
        ref={(el) => el?.focus()}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
      />
      <div class="quick-add-actions">
        <button type="submit" class="btn btn-primary btn-sm" disabled={!name.trim()}>
          Add column
        </button>
        <button type="button" class="btn btn-ghost btn-sm" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
