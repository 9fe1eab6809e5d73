/**
 * The storage provider contract: what a package must export to serve as `card.storage` or
 * `attachment.storage`. Published as `kanban-board-service/provider` (types, and the conformance
 * suite beside them); a provider imports only this, never the service's internals.
 *
 * A provider package exports one or both factories:
 *
 *   export function createCardStore(options, context): CardStore | Promise<CardStore>
 *   export function createAttachmentStore(options, context): AttachmentStore | Promise<AttachmentStore>
 *
 * `options` is `plugins["card.storage"].options` from .kanban.json as written (an empty object when
 * absent); a factory that refuses them throws an Error whose message names the option. A factory
 * that cannot open its storage (unreachable server, missing driver) throws too: the service does
 * not start and reports the message with the provider's name.
 *
 * Methods and their rules:
 * - The service keeps every card in memory and serialises its writes: a store is called for one
 *   mutation at a time per process, and only persists. `loadAll` runs at start-up (and after a
 *   provider switch); reads never reach the store.
 * - Transactions: `create` must be atomic against other processes sharing the storage (answer false
 *   when the id is taken); `updateMany`, when present, is all or nothing (a label rename touching
 *   many cards); without it the service calls `update` once per card.
 * - Change feed (several service instances over one storage): `subscribe` reports what *other*
 *   processes changed, as `upsert` (the card as it is now) or `remove`, with `peer: true`. Never
 *   report this process's own writes. The service applies them to its index and emits the same
 *   WebSocket events as for its own changes; webhooks are left to the instance that made the
 *   change (each event is delivered once). A store without `subscribe` is fine for one instance.
 * - Errors: throw an Error with an actionable message; the API answers 500 for an unexpected one
 *   (logged, never a crash). A store whose data people edit by hand may implement `ensureCurrent`
 *   and throw a conflict (see the built-in Markdown store); others leave it out.
 * - Fields come back as given: `content` byte for byte (no newline added or dropped, CRs kept,
 *   empty allowed), so a card's text is what the client sent through every provider.
 * - `close` releases connections and timers; the store is not used afterwards.
 */
import type { AttachmentStore } from './attachmentStore';
import type { CardStore } from './cardStore';

export type { Card, Comment, CardForm } from '../core/model';
export type { Priority } from '../core/shapes/vocabulary';
export type {
  CardStore,
  CardChange,
  ExternalChange,
  InstanceInfo,
  InvalidFile,
  LoadResult,
  RecoveredFile,
  SharedConfigStore,
  SharedConfigVersion,
} from './cardStore';
export type { CardStateStore } from './cardStateStore';
export type { AttachmentStore, AttachmentPayload, CardRef } from './attachmentStore';

/** What a factory is told about the workspace it serves. */
export interface StorageProviderContext {
  /** The workspace folder (holding .kanban.json); resolve relative option paths against it. */
  root: string;
  /** Its `.kanban/` folder. */
  kanbanDir: string;
}

export type CardStoreFactory = (
  options: Record<string, unknown>,
  context: StorageProviderContext,
) => CardStore | Promise<CardStore>;
export type AttachmentStoreFactory = (
  options: Record<string, unknown>,
  context: StorageProviderContext,
) => AttachmentStore | Promise<AttachmentStore>;

/** The exports the service looks for in a provider module; one or both. */
export interface StorageProviderModule {
  createCardStore?: CardStoreFactory;
  createAttachmentStore?: AttachmentStoreFactory;
}

/** The methods every store must have; the optional ones must be functions when present. */
export const CARD_STORE_METHODS = {
  required: ['loadAll', 'create', 'update', 'remove', 'close'],
  optional: [
    'updateMany',
    'ensureCurrent',
    'filePathOf',
    'subscribe',
    'describe',
    'instances',
    'sharedConfig',
    'sharedCardState',
  ],
} as const;

export const ATTACHMENT_STORE_METHODS = {
  required: ['put', 'get', 'remove', 'removeAll', 'move', 'close'],
  optional: ['describe'],
} as const;
