import { useAppState, useController } from '../context';
import { setLayout } from '../state/tableEdits';
import { Icon } from './Icon';

/**
 * Table or board: one toggle button, pressed while the table shows. One icon wide, so the top bar
 * still fits one row at 1440 px.
 */
export function LayoutToggle() {
  const ctrl = useController();
  const { layout } = useAppState();
  const table = layout === 'table';
  return (
    <button
      type="button"
      class={`icon-btn layout-toggle${table ? ' is-active' : ''}`}
      aria-pressed={table}
      aria-label="Table view"
      title={table ? 'Table view (click for the board)' : 'Table view: the cards as sortable rows'}
      data-testid="layout-table"
      onClick={() => setLayout(ctrl, table ? 'board' : 'table')}
    >
      <Icon name="list" />
    </button>
  );
}
