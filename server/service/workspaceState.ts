import type { CardIndex } from '../core/cardIndex';
import type { CardArgument, EventBus, EventName, Payload } from '../core/events';
import type { BoardConfig, Card } from '../core/model';
import type { KanbanConfig } from '../config/types';
import type { CardStore, InvalidFile } from '../storage/cardStore';
import type { CardStates } from './cardState';
import type { Claims } from './claims';
import type { SharedConfigState } from './sharedConfigState';

/**
 * The parts of an open workspace that the modules `Workspace` is built from use (views, the read
 * cache, config and claim followers, the file-truth checks): declared below workspace.ts so they
 * take a workspace without importing the class that imports them. `Workspace` implements it.
 */
export interface WorkspaceState {
  readonly root: string;
  /** Replaced, never edited in place, on every change (a write, a hand edit, another instance's). */
  config: KanbanConfig;
  readonly store: CardStore;
  readonly index: CardIndex;
  readonly cardStates: CardStates;
  /** Agents' claims on cards: a copy in memory of the claim store, for reads. */
  readonly claims: Claims;
  readonly events: EventBus;
  /** Set when the configuration lives in a database shared with other instances (MySQL). */
  readonly shared: SharedConfigState | null;
  /** Text of `.kanban.json` as we last wrote or read it, so the watcher can ignore our echoes. */
  configText: string | null;
  /** Keys of `.kanban.json` the service does not know (likely typos), as GET /api/workspace reports them. */
  configWarnings: string[];
  /** Card files and `.kanban.json` versions that do not parse; setting it tells the listeners. */
  invalidFiles: InvalidFile[];
  readonly configPath: string;
  readonly defaultBoardId: string;
  /** Checks run before any existing card is written; each may refuse by throwing or rejecting. */
  readonly cardWriteGuards: ReadonlySet<(cards: readonly Card[]) => void | Promise<void>>;
  /** Checks a mutation's caller waits on before it hears the result; they must not reject. */
  readonly beforeAnswer: Set<() => Promise<void> | undefined>;
  /** Steps applied to every config draft just before it is written. */
  readonly beforeConfigWrite: ReadonlySet<(draft: KanbanConfig) => Promise<void> | undefined>;
  /** Run a mutation after every earlier one has finished (at once when called inside one). */
  mutate<T>(operation: () => Promise<T>): Promise<T>;
  /** Apply a change to a copy of the config, write it (refused if the file changed), make it current. */
  updateConfig(change: (draft: KanbanConfig) => void): Promise<KanbanConfig>;
  /** The board's config; NotFoundError when there is none. */
  board(boardId: string): BoardConfig;
  /** Emit one event; task-related events carry the card's full read model. */
  emit<K extends EventName>(event: K, boardId: string | null, data: Payload<K>, ...card: CardArgument<K, Card>): void;
}
