import { useEffect, useRef, useState } from 'preact/hooks';
import { useAppState, useController } from '../../context';
import { slugOf } from '../../format';
import type { Board, Priority } from '../../types';
import { ConfirmButton } from '../ConfirmButton';
import { Icon } from '../Icon';
import { Sheet } from '../Sheet';
import { ColumnOptions, PriorityOptions } from '../Options';

interface Draft {
  name: string;
  description: string;
  defaultStatus: string;
  defaultPriority: string;
  wipPolicy: string;
  /** Days as typed; empty turns auto-archive off. */
  autoArchiveDays: string;
}

function draftOf(board: Board | null): Draft {
  return {
    name: board?.name ?? '',
    description: board?.description ?? '',
    defaultStatus: board?.defaultStatus ?? '',
    defaultPriority: board?.defaultPriority ?? '',
    wipPolicy: board?.wipPolicy ?? 'warn',
    autoArchiveDays: board?.autoArchiveDays ? String(board.autoArchiveDays) : '',
  };
}

/** A board id the workspace does not use yet, derived from the name. */
function freeBoardId(name: string, taken: Set<string>): string {
  const base = slugOf(name, 'board');
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/**
 * Create a board, or edit the current one (name, description, default status and priority) and
 * delete it. The server decides; a refusal (the default board, a board with cards) shows here.
 */
export function BoardPanel({ mode }: { mode: 'new' | 'edit' }) {
  const ctrl = useController();
  const { board, boards } = useAppState();
  const editing = mode === 'edit' ? board : null;
  const [draft, setDraft] = useState<Draft>(() => draftOf(editing));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  // After the sheet has taken focus for itself.
  useEffect(() => {
    const timer = setTimeout(() => nameInput.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, []);
  const close = () => ctrl.store.set({ panel: null });
  const field = (key: keyof Draft) => (e: Event) => setDraft({ ...draft, [key]: (e.target as HTMLInputElement).value });

  async function run(work: () => Promise<unknown>): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await work();
      return true;
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function submit(event: Event) {
    event.preventDefault();
    const name = draft.name.trim();
    if (!name) return setError('A board needs a name.');
    const description = draft.description.trim();
    if (!editing) {
      const id = freeBoardId(name, new Set(boards.map((b) => b.id)));
      if (await run(() => ctrl.api.createBoard({ id, name, ...(description ? { description } : {}) }))) {
        close();
        ctrl.switchBoard(id);
      }
      return;
    }
    const patch: Parameters<typeof ctrl.api.updateBoard>[1] = { name, description };
    if (draft.defaultStatus) patch.defaultStatus = draft.defaultStatus;
    if (draft.defaultPriority) patch.defaultPriority = draft.defaultPriority as Priority;
    patch.wipPolicy = draft.wipPolicy === 'block' ? 'block' : 'warn';
    // The server checks the number and answers what is wrong with it.
    patch.autoArchiveDays = draft.autoArchiveDays.trim() === '' ? null : Number(draft.autoArchiveDays);
    if (await run(() => ctrl.api.updateBoard(editing.id, patch))) {
      await ctrl.refreshBoard();
      close();
    }
  }

  async function remove() {
    if (!editing) return;
    if (await run(() => ctrl.api.deleteBoard(editing.id))) {
      close();
      ctrl.toast('info', `Board "${editing.name}" deleted.`);
      await ctrl.load();
    }
  }

  return (
    <Sheet title={editing ? `Edit board: ${editing.name}` : 'New board'} onClose={close} testId="board-panel">
      <form class="form-section" onSubmit={submit}>
        <label class="field">
          <span class="field-label">Name</span>
          <input class="input" name="name" value={draft.name} onInput={field('name')} ref={nameInput} />
        </label>
        <label class="field">
          <span class="field-label">Description</span>
          <textarea
            class="input"
            name="description"
            rows={3}
            value={draft.description}
            onInput={field('description')}
          />
        </label>
        {editing && (
          <>
            <label class="field">
              <span class="field-label">Default status for new cards</span>
              <select class="input" name="defaultStatus" value={draft.defaultStatus} onChange={field('defaultStatus')}>
                {!draft.defaultStatus && <option value="">(workspace setting)</option>}
                <ColumnOptions columns={editing.columns} />
              </select>
            </label>
            <label class="field">
              <span class="field-label">Default priority for new cards</span>
              <select
                class="input"
                name="defaultPriority"
                value={draft.defaultPriority}
                onChange={field('defaultPriority')}
              >
                {!draft.defaultPriority && <option value="">(workspace setting)</option>}
                <PriorityOptions />
              </select>
            </label>
            <label class="field">
              <span class="field-label">A move into a column at its WIP limit</span>
              <select class="input" name="wipPolicy" value={draft.wipPolicy} onChange={field('wipPolicy')}>
                <option value="warn">goes ahead, with a warning</option>
                <option value="block">is refused</option>
              </select>
            </label>
            <label class="field">
              <span class="field-label">Archive cards done for this many days</span>
              <input
                class="input"
                name="autoArchiveDays"
                type="number"
                min={1}
                step={1}
                placeholder="Never"
                value={draft.autoArchiveDays}
                onInput={field('autoArchiveDays')}
              />
            </label>
          </>
        )}
        {error && (
          <p class="field-error" role="alert" data-testid="board-panel-error">
            {error}
          </p>
        )}
        <div class="form-actions">
          <button type="submit" class="btn btn-primary" disabled={busy}>
            {editing ? 'Save board' : 'Create board'}
          </button>
          <button type="button" class="btn btn-ghost" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
      {editing && (
        <section class="form-section">
          <h3 class="section-title">Danger zone</h3>
          <ConfirmButton
            question={`Delete the board "${editing.name}"?`}
            confirmLabel="Delete board"
            onConfirm={() => void remove()}
          >
            <Icon name="trash" size={14} /> Delete board
          </ConfirmButton>
        </section>
      )}
    </Sheet>
  );
}
