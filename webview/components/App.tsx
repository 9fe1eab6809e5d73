import { useEffect } from 'preact/hooks';
import { useAppState, useController } from '../context';
import { installShortcuts } from '../keyboard';
import { BoardView } from './BoardView';
import { BrokenFilesNotice } from './BrokenFilesNotice';
import { ReadOnlyNotice } from './ReadOnlyNotice';
import { BulkBar } from './BulkBar';
import { Panels } from './Panels';
import { TokenPrompt } from './panels/TokenPrompt';
import { Toasts } from './Toasts';
import { TopBar } from './TopBar';
import { TableView } from './TableView';
import { GraphView } from './GraphView';
import type { Layout } from '../state/layouts';
import { MetricsView } from './metrics/MetricsView';
import { restoreLayout } from '../state/tableEdits';

function useDocumentTheme(theme: string, host: string): void {
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.host = host;
    // In VS Code the editor theme rules (body classes and --vscode-* variables); elsewhere the
    // user's choice, or the system's.
    if (host === 'vscode') return;
    const dark = theme === 'dark' || (theme === 'auto' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    root.dataset.theme = dark ? 'dark' : 'light';
    if (theme !== 'auto') return;
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const follow = () => (root.dataset.theme = query.matches ? 'dark' : 'light');
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [theme, host]);
}

function ReconnectingBanner() {
  const { connection, loaded } = useAppState();
  if (connection !== 'reconnecting' || !loaded) return null;
  return (
    <div class="banner banner-warning" role="status" data-testid="reconnecting">
      <span class="spinner" aria-hidden="true" /> Connection lost. Reconnecting… the board refreshes when it is back.
    </div>
  );
}

/** The component that draws each layout (state/layouts.ts lists them). */
function LayoutView({ layout }: { layout: Layout }) {
  switch (layout) {
    case 'table':
      return <TableView />;
    case 'graph':
      return <GraphView />;
    case 'metrics':
      return <MetricsView />;
    default:
      return <BoardView />;
  }
}

export function App() {
  const ctrl = useController();
  const { loaded, loadError, theme, layout } = useAppState();
  useDocumentTheme(theme, ctrl.transport.host);
  useEffect(() => installShortcuts(ctrl), [ctrl]);
  useEffect(() => restoreLayout(ctrl), [ctrl]);

  return (
    <div class="app">
      <TopBar />
      <ReconnectingBanner />
      <ReadOnlyNotice />
      <BrokenFilesNotice />
      {loadError && (
        <div class="banner banner-error" role="alert">
          {loadError}
          <button type="button" class="btn btn-sm" onClick={() => void ctrl.load(ctrl.state.boardId ?? undefined)}>
            Retry
          </button>
        </div>
      )}
      {loaded ? (
        <LayoutView layout={layout} />
      ) : (
        !loadError && (
          <div class="board-loading" aria-busy="true">
            Loading board…
          </div>
        )
      )}
      <BulkBar />
      <Panels />
      <Toasts />
      <TokenPrompt />
      <div id="live-region" class="visually-hidden" aria-live="polite" />
    </div>
  );
}
