import { useAppState, useController } from '../context';
import { setLayout } from '../state/tableEdits';
import { Icon } from './Icon';

/**
 * Table or board: one toggle button, pressed while the table shows; beside it, the flow metrics.
 * Icons only, side by side without a gap, so the top bar still fits one row at 1440 px.
 */
export function LayoutToggle() {
  const ctrl = useController();
  const { layout } = useAppState();
  const table = layout === 'table';
  return (
    <span class="layout-switch">
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
      <MetricsToggle />
    </span>
  );
}

/** Flow metrics of the board (charts of cycle time, throughput, WIP age, cumulative flow); pressed while they show. */
function MetricsToggle() {
  const ctrl = useController();
  const shown = useAppState().layout === 'metrics';
  return (
    <button
      type="button"
      class={`icon-btn layout-toggle${shown ? ' is-active' : ''}`}
      aria-pressed={shown}
      aria-label="Flow metrics"
      title={shown ? 'Flow metrics (click for the board)' : 'Flow metrics: cycle time, throughput, WIP age'}
      data-testid="layout-metrics"
      onClick={() => setLayout(ctrl, shown ? 'board' : 'metrics')}
    >
      <Icon name="chart" />
    </button>
  );
}
