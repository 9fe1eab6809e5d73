import { useAppState, useController } from '../context';
import { setLayout } from '../state/tableEdits';
import { Icon } from './Icon';

/** Board or Table: two buttons, the current one pressed. */
export function LayoutToggle() {
  const ctrl = useController();
  const { layout } = useAppState();
  return (
    <div class="layout-toggle" role="group" aria-label="Layout">
      <button type="button" class={`layout-btn${layout === 'board' ? ' is-active' : ''}`} aria-pressed={layout === 'board'} title="Board: cards in columns" data-testid="layout-board" onClick={() => setLayout(ctrl, 'board')}>
        <Icon name="board" size={14} />
        <span class="layout-text">Board</span>
      </button>
      <button type="button" class={`layout-btn${layout === 'table' ? ' is-active' : ''}`} aria-pressed={layout === 'table'} title="Table: cards as sortable rows" data-testid="layout-table" onClick={() => setLayout(ctrl, 'table')}>
        <Icon name="list" size={14} />
        <span class="layout-text">Table</span>
      </button>
    </div>
  );
}
