import { useAppState, useController } from '../context';
import type { ThemeChoice } from '../state/appState';
import { BoardSwitcher } from './BoardSwitcher';
import { GroupByControl } from './GroupByControl';
import { Icon } from './Icon';
import { LayoutSwitcher } from './LayoutSwitcher';
import { SearchBar } from './SearchBar';
import { ViewSwitcher } from './ViewSwitcher';

const NEXT_THEME: Record<ThemeChoice, ThemeChoice> = { auto: 'dark', dark: 'light', light: 'auto' };

function ConnectionBadge() {
  const { connection } = useAppState();
  const text = connection === 'online' ? 'Live' : connection === 'reconnecting' ? 'Reconnecting…' : 'Connecting…';
  return (
    <span
      class={`connection connection-${connection}`}
      role="status"
      aria-live="polite"
      data-testid="connection"
      title={connection === 'online' ? 'Changes from elsewhere appear here at once' : 'Live updates paused'}
    >
      <span class="connection-dot" aria-hidden="true" />
      <span class="connection-text">{text}</span>
    </span>
  );
}

/**
 * Board switcher, search and filters, connection state and the workspace buttons: one row on a wide
 * screen, two below (search and filters under the buttons), and on a phone the filters wrap.
 */
export function TopBar() {
  const ctrl = useController();
  const { theme, board } = useAppState();
  const inVsCode = ctrl.transport.host === 'vscode';
  return (
    <header class="topbar">
      <div class="brand" aria-hidden="true">
        <span class="brand-mark" />
      </div>
      <BoardSwitcher />
      <LayoutSwitcher />
      <ViewSwitcher />
      <SearchBar />
      <GroupByControl />
      <div class="topbar-spacer" />
      <ConnectionBadge />
      <button
        type="button"
        class="btn btn-primary new-card"
        title="New card (n)"
        aria-label="New card"
        onClick={() => ctrl.store.set({ quickAddStatus: board?.defaultStatus ?? board?.columns[0]?.id ?? null })}
      >
        <Icon name="plus" /> <span class="new-card-text">New card</span>
      </button>
      <button
        type="button"
        class="icon-btn"
        title="Archive"
        aria-label="Archive"
        data-testid="open-archive"
        onClick={() => ctrl.store.set({ panel: 'archive' })}
      >
        <Icon name="archive" />
      </button>
      <button
        type="button"
        class="icon-btn"
        title="Labels"
        aria-label="Labels"
        onClick={() => ctrl.store.set({ panel: 'labels' })}
      >
        <Icon name="tag" />
      </button>
      {!inVsCode && (
        <button
          type="button"
          class="icon-btn"
          title={`Theme: ${theme} (click to change)`}
          aria-label={`Theme: ${theme}`}
          onClick={() => ctrl.setTheme(NEXT_THEME[theme])}
        >
          <Icon name={theme === 'dark' ? 'moon' : 'sun'} />
          {theme === 'auto' && <span class="theme-auto-mark">A</span>}
        </button>
      )}
      <button
        type="button"
        class="icon-btn"
        title="Settings"
        aria-label="Settings"
        data-testid="open-settings"
        onClick={() => ctrl.store.set({ panel: 'settings' })}
      >
        <Icon name="settings" />
      </button>
    </header>
  );
}
