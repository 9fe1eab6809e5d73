import { useState } from 'preact/hooks';
import { useAppState, useController } from '../context';
import { bulkEdit } from '../state/bulkActions';
import { clearSelection, selectedIds } from '../state/selection';
import { PRIORITIES, type Priority } from '../types';
import { ColumnOptions } from './Options';
import { Icon } from './Icon';

/** A select that runs its choice at once and shows its label again (a menu, not a field). */
function ActionSelect({
  label,
  testId,
  onPick,
  children,
}: {
  label: string;
  testId: string;
  onPick(value: string): void;
  children: preact.ComponentChildren;
}) {
  return (
    <label class="filter-select bulk-select">
      <span class="visually-hidden">{label}</span>
      <select
        aria-label={label}
        data-testid={testId}
        value=""
        onChange={(e) => {
          const select = e.target as HTMLSelectElement;
          const value = select.value;
          select.value = '';
          if (value) onPick(value);
        }}
      >
        <option value="">{label}</option>
        {children}
      </select>
    </label>
  );
}

/** Assignee: type a name and press Enter (an empty name unassigns). */
function AssigneeField({ onSet }: { onSet(name: string | null): void }) {
  const [name, setName] = useState('');
  return (
    <form
      class="bulk-assignee"
      onSubmit={(e) => {
        e.preventDefault();
        onSet(name.trim() || null);
        setName('');
      }}
    >
      <input
        aria-label="Assign the selected cards to"
        data-testid="bulk-assignee"
        placeholder="Assignee ⏎"
        value={name}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
    </form>
  );
}

/**
 * The bar shown while cards are selected: how many, and the changes that apply to all of them at
 * once (one request, all or nothing, one Undo).
 */
export function BulkBar() {
  const ctrl = useController();
  const state = useAppState();
  const ids = selectedIds(state);
  if (ids.length === 0 || !state.board) return null;
  const onCards = [...new Set(ids.flatMap((id) => state.tasks[id]?.labels ?? []))].sort();
  const known = [...new Set([...Object.keys(state.labels), ...onCards])].sort();
  const run = (change: Parameters<typeof bulkEdit>[1]) => void bulkEdit(ctrl, change);
  return (
    <div class="bulk-bar" role="toolbar" aria-label="Selected cards" data-testid="bulk-bar">
      <span class="bulk-count" data-testid="bulk-count">
        {ids.length} selected
      </span>
      <ActionSelect
        label="Move to"
        testId="bulk-move"
        onPick={(status) => run({ status, position: Number.MAX_SAFE_INTEGER })}
      >
        <ColumnOptions columns={state.board.columns} />
      </ActionSelect>
      <ActionSelect
        label="Priority"
        testId="bulk-priority"
        onPick={(priority) => run({ priority: priority as Priority })}
      >
        {PRIORITIES.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </ActionSelect>
      <AssigneeField onSet={(assignee) => run({ assignee })} />
      <ActionSelect
        label="Labels"
        testId="bulk-labels"
        onPick={(pick) =>
          run({ labels: pick.startsWith('+') ? { add: [pick.slice(1)] } : { remove: [pick.slice(1)] } })
        }
      >
        <optgroup label="Add">
          {known.map((name) => (
            <option key={`+${name}`} value={`+${name}`}>
              + {name}
            </option>
          ))}
        </optgroup>
        {onCards.length > 0 && (
          <optgroup label="Remove">
            {onCards.map((name) => (
              <option key={`-${name}`} value={`-${name}`}>
                − {name}
              </option>
            ))}
          </optgroup>
        )}
      </ActionSelect>
      <button type="button" class="btn btn-sm" data-testid="bulk-archive" onClick={() => run({ archive: true })}>
        <Icon name="archive" size={14} /> Archive
      </button>
      <button
        type="button"
        class="btn btn-sm bulk-delete"
        data-testid="bulk-delete"
        onClick={() => run({ delete: true })}
      >
        <Icon name="trash" size={14} /> Delete
      </button>
      <button
        type="button"
        class="icon-btn"
        data-testid="bulk-clear"
        aria-label="Clear the selection (Esc)"
        title="Clear the selection (Esc)"
        onClick={() => clearSelection(ctrl)}
      >
        <Icon name="close" size={14} />
      </button>
    </div>
  );
}
