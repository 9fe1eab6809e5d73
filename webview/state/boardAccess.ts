import type { Api } from '../api';
import type { AppState, Toast } from './appState';
import type { Store } from './store';

/**
 * What the modules the controller itself builds on (live events, saved views, server warnings) use
 * of it: the state, the API and a few shared helpers. Declared beneath BoardController so those
 * modules need not import the class that imports them; the controller is one.
 */
export interface BoardAccess {
  readonly store: Store<AppState>;
  readonly api: Api;
  readonly state: AppState;
  toast(kind: Toast['kind'], text: string, action?: Toast['action']): void;
  /** Run a request; a refusal becomes a visible message. Returns undefined when it failed. */
  attempt<T>(work: () => Promise<T>): Promise<T | undefined>;
  /** Re-run the filter soon (now, or after a short wait that gathers a burst of changes). */
  scheduleFilter(delay: number): void;
}
