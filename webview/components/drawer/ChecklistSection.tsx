import { useState } from 'preact/hooks';
import { useController } from '../../context';
import { changeChecklist } from '../../state/checklistActions';
import type { TaskView } from '../../types';
import { AddRow } from './AddRow';

type Item = NonNullable<TaskView['checklistItems']>[number];

function ChecklistRow({
  item,
  done,
  disabled,
  onToggle,
}: {
  item: Item;
  done: boolean;
  disabled: boolean;
  onToggle(): void;
}) {
  return (
    <li class={`checklist-item${done ? ' is-done' : ''}`} data-testid="checklist-item">
      <label>
        <input type="checkbox" checked={done} disabled={disabled} onChange={onToggle} />
        <span>{item.text}</span>
      </label>
    </li>
  );
}

/**
 * The card's checklist: the task list items of its Markdown, ticked in place. Each tick or new
 * item rewrites that one line of the card file on the server (onto the version shown), so the
 * file stays plain Markdown and the content preview above shows the same state.
 */
export function ChecklistSection({
  task,
  etag,
  onSaved,
}: {
  task: TaskView;
  etag?: string;
  onSaved(task: TaskView, etag?: string): void;
}) {
  const ctrl = useController();
  const [busy, setBusy] = useState(false);
  // The box shows its new state at once; the server's answer (or refusal) then replaces it.
  const [ticking, setTicking] = useState<{ index: number; done: boolean } | null>(null);
  const items = task.checklistItems ?? [];

  async function run(call: (boardId: string) => ReturnType<typeof ctrl.api.addChecklistItem>): Promise<boolean> {
    setBusy(true);
    const saved = await changeChecklist(ctrl, task.id, call);
    setBusy(false);
    setTicking(null);
    if (saved) onSaved(saved.task, saved.etag);
    return saved !== null;
  }

  return (
    <section class="drawer-section drawer-checklist" aria-label="Checklist">
      <div class="drawer-section-head">
        <h3 class="section-title">
          Checklist{' '}
          {task.checklist && (
            <span class="count" data-testid="drawer-checklist-progress">
              {task.checklist.done}/{task.checklist.total}
            </span>
          )}
        </h3>
      </div>
      {items.length > 0 && (
        <ul class="checklist">
          {items.map((item) => (
            <ChecklistRow
              key={item.index}
              item={item}
              done={ticking?.index === item.index ? ticking.done : item.done}
              disabled={busy}
              onToggle={() => {
                setTicking({ index: item.index, done: !item.done });
                void run((boardId) =>
                  ctrl.api.editChecklistItem(boardId, task.id, item.index, { done: !item.done }, etag),
                );
              }}
            />
          ))}
        </ul>
      )}
      <AddRow
        class="checklist-add"
        name="checklist-add"
        placeholder="Add an item"
        label="New checklist item"
        busy={busy}
        onAdd={(item) => run((boardId) => ctrl.api.addChecklistItem(boardId, task.id, item, etag))}
      >
        Add
      </AddRow>
    </section>
  );
}
