import type { KanbanConfig } from '../config/types';
import type { SharedConfigStore } from '../storage/cardStore';

/**
 * With a store that several instances share (MySQL), the workspace configuration lives in the
 * database: every instance has the same boards, columns, labels, settings, forms and webhooks.
 * `.kanban.json` keeps only what belongs to one machine (plugins: how to connect; server: how it
 * listens) and is never rewritten with the shared part.
 */
export interface SharedConfigState {
  store: SharedConfigStore;
  /** The version of the shared document that `ws.config` holds. */
  version: number;
  /** Stops following other instances' changes (null: not following). */
  stopFollowing: (() => void) | null;
  /**
   * The shared text of the config object last written or compared, so that a write does not
   * serialise the unchanged current config again; keyed by identity, since `ws.config` is replaced
   * (never edited in place) on every change, including hand edits of `.kanban.json`.
   */
  lastText?: { config: KanbanConfig; text: string };
}
