import type { Static } from '@sinclair/typebox';
import type { InvalidFileSchema } from '../core/shapes/storage';
import type {
  DuplicateIdCardSchema,
  InstanceInfoSchema,
  RecoveredFileSchema,
  StaleCopySchema,
} from '../core/shapes/workspaceStatus';
import type { CardStateStore } from './cardStateStore';
import type { AttachmentStore } from './attachmentStore';
import type { LogStore } from './logStore';
import type { ChangeSource } from './changeSource';
import type { SharedWebhookStore } from './webhookDeliveryStore';
import type { ClaimStore } from './claims/claimStore';
import { FileConflictError } from '../core/errors';
import type { Card } from '../core/model';

/** A file the store could not read; reported by /api/workspace and never touched. */
export type InvalidFile = Static<typeof InvalidFileSchema>;

/**
 * A second file of one card that a crash in the middle of a move left (provably the same card:
 * see markdown/cardIdentity.ts). It is not served; the standalone server's start, the card's next
 * write or `kanban doctor --fix` moves it under `.kanban/.state/recovered/`.
 */
export type StaleCopy = Static<typeof StaleCopySchema>;

/**
 * A card whose file claims an id another card holds (two branches made the same id, a card file
 * copied): both are served, this one under `servedAs` until its file is renamed to it.
 */
export type DuplicateIdCard = Static<typeof DuplicateIdCardSchema>;

/** A torn move's leftover copy, moved out of the way (under `.kanban/.state/recovered/`). */
export type RecoveredFile = Static<typeof RecoveredFileSchema>;

export interface LoadResult {
  cards: Card[];
  invalid: InvalidFile[];
  stale?: StaleCopy[];
  duplicates?: DuplicateIdCard[];
}

/**
 * A card file is not the one the service last read: edited by hand, replaced by git, removed, or no
 * longer parsing. Nothing was written. `changes` is what the file holds now, for the index to adopt
 * (with the usual events); `invalid` is set when it does not parse.
 */
export class StaleFileError extends FileConflictError {
  constructor(
    message: string,
    readonly path: string,
    readonly changes: ExternalChange[],
    readonly invalid: InvalidFile | null,
  ) {
    super(message);
  }
}

/**
 * A shared database's card row moved on since this instance read it: another instance wrote the
 * card first. Nothing was written; the index adopts `changes` like a hand edit, and a change that
 * did not carry `If-Match` may be applied again on top (see api/execute.ts).
 */
export class StaleRowError extends StaleFileError {}

/**
 * Where cards and their comments are kept. The service owns the in-memory index; a store only
 * persists, so every provider is a few small functions.
 */
export interface CardStore {
  /** Provider id as configured in `card.storage` (markdown, sqlite, mysql, postgres). */
  readonly provider: string;
  loadAll(): Promise<LoadResult>;
  /** Persist a new card. Returns false when its id is already taken (by any process). */
  create(card: Card): Promise<boolean>;
  /** Persist a changed card; `previous` is the stored version (its board or status may differ). */
  update(card: Card, previous: Card): Promise<void>;
  /**
   * Persist several changed cards as one change (a label rename, re-spread order keys): all or
   * nothing where the store can promise it. Stores without it get one update per card.
   */
  updateMany?(changes: CardChange[]): Promise<void>;
  remove(card: Card): Promise<void>;
  /** Move the leftovers of interrupted moves the last load found out of the way (file stores). */
  recoverStaleCopies?(): Promise<RecoveredFile[]>;
  /** Leftovers of interrupted moves not moved away yet (file stores). */
  readonly staleCopies?: readonly StaleCopy[];
  /** Cards served under a new id until their file is renamed to it (file stores). */
  readonly duplicateIds?: readonly DuplicateIdCard[];
  /**
   * Stores whose data users edit by hand (files) check before any write that each card is still
   * what the service last read, and throw StaleFileError when one is not.
   */
  ensureCurrent?(cards: Card[]): Promise<void>;
  /** Workspace-relative path of the card's file, for stores that have one. */
  filePathOf?(card: Pick<Card, 'id' | 'boardId' | 'status' | 'archivedAt'>): string;
  /**
   * Changes made outside this process (another server on the same database, a hand edit of a file).
   * The service applies them to its index and emits the same events as for API changes.
   */
  subscribe?(listener: (change: ExternalChange) => void): () => void;
  /** Provider details for /api/storage (database file, host...), never secrets. */
  describe?(): Record<string, unknown>;
  /** The service instances sharing this store (a shared database), this one first. */
  instances?(): InstanceInfo[];
  /**
   * Stores that several instances share (MySQL) keep the workspace configuration too, so every
   * instance has the same boards, labels, settings and webhooks; .kanban.json then says only how
   * to connect.
   */
  sharedConfig?(): SharedConfigStore;
  /**
   * Shared stores keep per-actor card state too (the default `card.state` over them), so every
   * instance reports the same unread and open state.
   */
  sharedCardState?(): CardStateStore;
  /**
   * Shared stores keep attachment payloads and card and board logs too (the default over them), so
   * a file or an entry added through one instance is served by every other.
   */
  sharedAttachments?(): AttachmentStore;
  sharedLogs?(): LogStore;
  /**
   * Shared stores keep one event log for every instance (global revision); null or absent means
   * this process's own event stream is the one its clients follow.
   */
  sharedEvents?(): SharedEventStore;
  /**
   * Read outside changes now, and hand them to the subscribers before answering: a poll that
   * starts after the call (one already running may have read too early).
   */
  catchUp?(): Promise<void>;
  /**
   * Shared stores keep webhook deliveries, their leases and log too, so each event is delivered
   * once whichever instance made it, and a dead instance's deliveries are taken over.
   */
  sharedWebhooks?(): SharedWebhookStore;
  /**
   * Database stores keep agents' claims and sessions beside the cards, so every process and
   * instance using the database decides under one lock; absent, claims are files (storage/claims/).
   */
  claimStore?(): ClaimStore;
  close(): Promise<void>;
}

/** The global event log of a shared store (see server/live/globalEvents.ts). */
export interface SharedEventStore {
  /** This instance's name in the log, the same as in the change log and instance list. */
  readonly origin: string;
  append(origin: string, body: string): Promise<number>;
  after(seq: number, limit: number, through?: number): Promise<{ seq: number; origin: string; body: string }[]>;
  head(): Promise<number>;
  oldest(): Promise<number | null>;
  /** Pushed news of appends (kind `events`), when the database can push; poll otherwise. */
  readonly changes?: ChangeSource;
}

export interface SharedConfigVersion {
  /** The shared part of the configuration, as .kanban.json text. */
  text: string;
  version: number;
}

export interface SharedConfigStore {
  /** The shared document, or null before the first instance seeded it. */
  read(): Promise<SharedConfigVersion | null>;
  /** Only the version, for cheap polling. */
  version(): Promise<number | null>;
  /** Store `text` as the first version unless a document exists; answers what is stored now. */
  seed(text: string): Promise<SharedConfigVersion & { seeded: boolean }>;
  /** Replace the document if it is still at `expected`: the new version, or null when another instance wrote first. */
  write(text: string, expected: number): Promise<number | null>;
  /** Pushed news of writes (kind `config`), when the database can push; poll otherwise. */
  readonly changes?: ChangeSource;
}

/** One running service instance, as `GET /api/workspace` lists it. */
export type InstanceInfo = Static<typeof InstanceInfoSchema>;

export interface CardChange {
  card: Card;
  previous: Card;
}

/**
 * `peer` marks a change another service instance made (read from a shared database), as opposed to
 * a hand edit of a file: that instance already announced it to webhooks, so the events this one
 * emits for it carry `peer: true` and are for its own clients only.
 */
export type ExternalChange =
  | {
      kind: 'upsert';
      card: Card;
      peer?: boolean;
      /** Its file is another than before (renamed by hand): a new read model even with the same text. */ relocated?: boolean;
    }
  | { kind: 'remove'; boardId: string; id: string; peer?: boolean };
