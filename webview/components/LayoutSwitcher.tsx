import { useAppState, useController } from '../context';
import { LAYOUTS } from '../state/layouts';
import { setLayout } from '../state/tableEdits';
import { Icon } from './Icon';

/**
 * The other ways to show the board (table, graph, ...): one icon button per entry of LAYOUTS after
 * the board, pressed while its view shows; pressing the shown one goes back to the board. The board
 * itself has no button, so the top bar stays one row at 1440 px.
 */
export function LayoutSwitcher() {
  const ctrl = useController();
  const { layout } = useAppState();
  return (
    <div class="layout-switcher" role="group" aria-label="Views">
      {LAYOUTS.filter((entry) => entry.id !== 'board').map((entry) => {
        const shown = layout === entry.id;
        return (
          <button
            key={entry.id}
            type="button"
            class={`icon-btn layout-toggle${shown ? ' is-active' : ''}`}
            aria-pressed={shown}
            aria-label={entry.label}
            title={shown ? `${entry.label} (click for the board)` : entry.title}
            data-testid={`layout-${entry.id}`}
            onClick={() => setLayout(ctrl, shown ? 'board' : entry.id)}
          >
            <Icon name={entry.icon} />
          </button>
        );
      })}
    </div>
  );
}
