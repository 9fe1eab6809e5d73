import { useState } from 'preact/hooks';
import { useController } from '../context';
import { archiveColumnCards, shiftColumn } from '../state/columnActions';
import type { Column } from '../types';
import { ColorPicker } from './ColorPicker';
import { ConfirmButton } from './ConfirmButton';
import { Icon } from './Icon';
import { Popover } from './Popover';

/** Rename, recolor, move and delete a column. The server decides; a refusal shows its message. */
/** `index` and `count` place the column among the board's columns, for the move buttons. */
export function ColumnMenu({
  column,
  cardCount,
  index,
  count,
}: {
  column: Column;
  cardCount: number;
  index: number;
  count: number;
}) {
  const ctrl = useController();
  const [name, setName] = useState(column.name);
  const [limit, setLimit] = useState(column.wipLimit ? String(column.wipLimit) : '');

  async function save(patch: { name?: string; color?: string; wipLimit?: number | null }) {
    const boardId = ctrl.state.boardId;
    if (!boardId) return;
    if ((await ctrl.attempt(() => ctrl.api.updateColumn(boardId, column.id, patch))) !== undefined)
      await ctrl.refreshBoard();
  }

  async function remove(close: () => void) {
    const boardId = ctrl.state.boardId;
    if (!boardId) return;
    if ((await ctrl.attempt(() => ctrl.api.deleteColumn(boardId, column.id))) !== undefined) {
      close();
      await ctrl.refreshBoard();
    }
  }

  return (
    <Popover button={<Icon name="more" />} label={`Column ${column.name} options`} testId={`column-menu-${column.id}`}>
      {(close) => (
        <div class="menu-form">
          <form
            class="menu-row"
            onSubmit={(e) => {
              e.preventDefault();
              if (name.trim() && name !== column.name) void save({ name: name.trim() });
            }}
          >
            <input
              class="input"
              aria-label="Column name"
              value={name}
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
            />
            <button type="submit" class="btn btn-sm">
              Rename
            </button>
          </form>
          <form
            class="menu-row"
            onSubmit={(e) => {
              e.preventDefault();
              // Empty removes the limit; the server checks the number and says what is wrong.
              void save({ wipLimit: limit.trim() === '' ? null : Number(limit) });
            }}
          >
            <input
              class="input"
              type="number"
              min={1}
              step={1}
              placeholder="No WIP limit"
              aria-label="WIP limit"
              value={limit}
              onInput={(e) => setLimit((e.target as HTMLInputElement).value)}
            />
            <button type="submit" class="btn btn-sm">
              Set limit
            </button>
          </form>
          <div class="menu-label">Color</div>
          <ColorPicker label="Column color" value={column.color} onChange={(color) => void save({ color })} />
          <div class="menu-label" title="Or drag the column by its header">
            Position
          </div>
          <div class="menu-row-buttons">
            <button
              type="button"
              class="btn btn-sm"
              disabled={index <= 0}
              onClick={() => void shiftColumn(ctrl, column.id, -1)}
            >
              ← Move left
            </button>
            <button
              type="button"
              class="btn btn-sm"
              disabled={index < 0 || index >= count - 1}
              onClick={() => void shiftColumn(ctrl, column.id, 1)}
            >
              Move right →
            </button>
          </div>
          <div class="menu-divider" />
          <ConfirmButton
            question={cardCount ? `Archive ${cardCount} card(s)?` : 'The column is empty.'}
            confirmLabel="Archive all"
            class="btn btn-ghost"
            onConfirm={() => {
              close();
              void archiveColumnCards(ctrl, column.id);
            }}
          >
            <Icon name="archive" size={14} /> Archive all
          </ConfirmButton>
          <ConfirmButton
            question={cardCount ? `${cardCount} card(s) inside.` : 'Delete this column?'}
            confirmLabel="Delete column"
            onConfirm={() => void remove(close)}
          >
            <Icon name="trash" size={14} /> Delete column
          </ConfirmButton>
        </div>
      )}
    </Popover>
  );
}
