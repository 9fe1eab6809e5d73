import { useState } from 'preact/hooks';
import { useAppState, useController } from '../../context';
import { addSubCard } from '../../state/subCardActions';
import type { TaskView } from '../../types';
import { Avatar } from '../CardView';
import { Icon } from '../Icon';
import { AddRow } from './AddRow';

/**
 * The card's sub-cards (the board's cards that name it as `parent`), each a row that opens it, and
 * a box that adds one. The list is the board's own copy, so it follows every change live.
 */
export function SubCardsSection({ task }: { task: TaskView }) {
  const ctrl = useController();
  const { tasks, order, board } = useAppState();
  const [busy, setBusy] = useState(false);
  if (!board) return null;
  const columnName = (status: string) => board.columns.find((c) => c.id === status)?.name ?? status;
  // Board order: column by column, each in its own order, as the board shows them.
  const children = Object.values(order)
    .flat()
    .filter((id) => tasks[id]?.parent === task.id)
    .map((id) => tasks[id]);
  const editable = task.status !== 'deleted';
  if (!editable && children.length === 0) return null;

  async function add(title: string): Promise<boolean> {
    setBusy(true);
    const created = await addSubCard(ctrl, task, title);
    setBusy(false);
    return Boolean(created);
  }

  return (
    <section class="drawer-section drawer-subcards" aria-label="Sub-cards" data-testid="subcards-section">
      <h3 class="section-title">
        Sub-cards{' '}
        {task.children.total > 0 && (
          <span class="count">
            {task.children.done}/{task.children.total} done
          </span>
        )}
      </h3>
      {children.length > 0 && (
        <ul class="dependency-list subcard-list">
          {children.map((child) => (
            <li key={child.id} class="subcard-row" data-testid="subcard-row" data-card-id={child.id}>
              <button
                type="button"
                class="link-btn subcard-title"
                title={child.id}
                onClick={() => ctrl.store.set({ openTaskId: child.id })}
              >
                {child.title || child.id}
              </button>
              <span class="chip subtle subcard-status">{columnName(child.status)}</span>
              {child.assignee && (
                <span class="subcard-assignee" title={`Assigned to ${child.assignee}`}>
                  <Avatar name={child.assignee} />
                  <span class="visually-hidden">{child.assignee}</span>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {editable && (
        <AddRow
          class="subcard-add"
          name="subcard-add"
          placeholder="Title of a new sub-card"
          label="Title of a new sub-card"
          busy={busy}
          testId="add-subcard"
          onAdd={add}
        >
          <Icon name="plus" size={12} /> Add sub-card
        </AddRow>
      )}
    </section>
  );
}
