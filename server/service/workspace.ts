import { AsyncLocalStorage } from 'node:async_hooks';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ProgressChannel } from '../core/progress';
import { removeOrphanTempFiles, writeFileIfUnchanged } from '../core/atomicFile';
import { configUnchangedNow, ensureConfigCurrent } from './fileTruth';
import { CardIndex } from '../core/cardIndex';
import { EventBus, type CardArgument, type EventName, type Payload } from '../core/events';
import type { BoardConfig, Card, TaskView } from '../core/model';
import { FileConflictError, NotFoundError } from '../core/errors';
import { ConfigError, defaultConfig, parseConfig, serializeConfig } from '../config/parseConfig';
import { unknownConfigKeysIn } from '../config/unknownKeys';
import { noteConfigWarnings } from './configWarnings';
import type { KanbanConfig } from '../config/types';
import { adoptLocalFiles } from './localFilesAdoption';
import type { CardStore, DuplicateIdCard, InvalidFile, RecoveredFile, StaleCopy } from '../storage/cardStore';
import {
  createAttachmentStore,
  createCardStateStore,
  createLogStore,
  createCardStore,
  type ProviderContext,
} from '../storage/providers';
import type { AttachmentStore } from '../storage/attachmentStore';
import type { LogStore } from '../storage/logStore';
import { CardStates } from './cardState';
import { createKanbanGitignoreIfMissing, ensureSelfIgnoringDir } from '../storage/generatedFiles';
import type { IdentityProvider } from '../auth/identity';
import type { AuthHealth } from '../auth/gate';
import { loadIdentityProvider } from '../auth/loadProvider';
import { taskView } from './views';
import { ReadCache } from './readCache';
import { log } from '../core/log';
import { GlobalEventLog, type LiveStream } from './globalEvents';
import { adoptSharedConfig, followSharedConfig, stopFollowingSharedConfig, updateSharedConfig } from './sharedConfig';
import type { SharedConfigState } from './sharedConfigState';
import { Claims } from './claims';
import { refuseOtherAgentsClaims } from './claimRules';
import { followDatabaseClaims } from './claimEvents';
import { openClaimStore } from './claimStores';
import type { WorkspaceState } from './workspaceState';
import { NoticedMoves } from './noticedMoves';

export interface WorkspaceOptions {
  root: string;
  /** Port the HTTP server listens on, when one runs; reported by /api/workspace. */
  port?: number;
  /**
   * Open without touching the folder: no leftover temporary files removed, no index cache written
   * (an editor's Restricted Mode, where the files of a repository not yet trusted stay as cloned).
   * Refusing the writes themselves is the host's part.
   */
  readOnly?: boolean;
}

/**
 * The mutations running in the current async context, per workspace (a mutation of one workspace may
 * call into another's). One store for the whole process: each AsyncLocalStorage ever used stays on
 * Node's list for every async operation to visit, so one per workspace made a process that had
 * opened a thousand workspaces (a test run, an editor reopening folders) do file I/O 80 times slower.
 */
const runningMutations = new AsyncLocalStorage<ReadonlyMap<Workspace, { running: boolean }>>();

/** One part of a migration done by a layer above the service (see Workspace.storeSwitchSteps). */
export interface StoreSwitchStep {
  /**
   * Before the switch, with both stores open: copy into `target` what it must hold. Throwing fails
   * the migration, which then changes nothing.
   */
  carry(target: CardStore): Promise<void>;
  /** Once the workspace serves the target, before the previous store is closed. */
  switched(): Promise<void>;
}

/**
 * The state of one workspace: its config, its card store and the in-memory index, plus the one
 * event stream. Operations live in the modules beside this file; every mutation runs through
 * `mutate`, one at a time, so the index and the files never disagree.
 */
export class Workspace implements WorkspaceState {
  readonly events = new EventBus();
  /** Progress of long work, for hosts that show it (not an event: nothing changes by it). */
  readonly progress = new ProgressChannel();
  /** When this service started, for the instance list of GET /api/workspace. */
  readonly startedAt = new Date().toISOString();
  readonly index = new CardIndex();
  /** Serialized answers of repeated list reads, valid until the index, card state or config changes. */
  readonly readCache = new ReadCache();
  private invalid: InvalidFile[] = [];
  /** Told whenever the list of files that do not parse changes (a host shows them as problems). */
  readonly invalidFilesListeners = new Set<(files: readonly InvalidFile[]) => void>();
  /** Torn moves' leftover copies moved to `.kanban/.state/recovered/` by this process. */
  recoveredFiles: RecoveredFile[] = [];
  /** Keys of `.kanban.json` the service does not know (likely typos), as GET /api/workspace reports them. */
  configWarnings: string[] = [];
  /** Torn moves' leftover copies found by the last load and not moved away yet (not served). */
  get staleCopies(): readonly StaleCopy[] {
    return this.store.staleCopies ?? [];
  }

  /** Cards served under a new id because another card holds the one their file claims. */
  get duplicateIds(): readonly DuplicateIdCard[] {
    return this.store.duplicateIds ?? [];
  }
  /** The card a board UI opened last (GET /tasks/active). */
  activeTask: { boardId: string; id: string } | null = null;
  /** Text of `.kanban.json` as we last wrote or read it, so the watcher can ignore our echoes. */
  configText: string | null = null;
  /** The auth.identity provider, or null when the API is open. */
  identityProvider: IdentityProvider | null = null;
  readonly authHealth: AuthHealth = { identityUnavailable: null };
  /** Whether a file watcher keeps the index in step with hand edits. */
  watching = false;
  /** Set when the configuration lives in a database shared with other instances (MySQL). */
  shared: SharedConfigState | null = null;
  /**
   * What WebSocket clients follow: this process's events, or over a shared database the global
   * event log of every instance (one revision everywhere).
   */
  live: LiveStream = this.events;
  private globalEvents: GlobalEventLog | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Checks a mutation's caller waits on before it hears the result, e.g. that the webhook
   * deliveries its events queued are on disk. Each answers a promise, or undefined when nothing is
   * owed. They run once the operation has finished, outside the one-at-a-time queue, so the next
   * mutation does not wait for them; they must not reject.
   */
  readonly beforeAnswer = new Set<() => Promise<void> | undefined>();
  /**
   * Checks run before any existing card is written, each may refuse by throwing (a StateRuleError),
   * or by rejecting: the VS Code extension refuses to write a card whose file has unsaved changes in
   * an editor, so a board edit never lands on disk under a dirty buffer; another agent's claim
   * refuses an agent's write (service/claimRules.ts).
   */
  readonly cardWriteGuards = new Set<(cards: readonly Card[]) => void | Promise<void>>();
  /**
   * Steps applied to every config draft just before `updateConfig` writes it, e.g. moving literal
   * webhook secrets out of the file users commit. Each may answer a promise to wait for.
   */
  readonly beforeConfigWrite = new Set<(draft: KanbanConfig) => Promise<void> | undefined>();

  /**
   * What a migration asks of the layers above the service as it moves the cards to another store:
   * the webhook secrets follow the cards, and the delivery queue moves onto the new store.
   */
  readonly storeSwitchSteps = new Set<StoreSwitchStep>();

  /** The hand moves the watcher saw, which the flow metrics count at the time they were seen. */
  readonly noticedMoves = new NoticedMoves(this.events);

  private constructor(
    readonly root: string,
    public config: KanbanConfig,
    public store: CardStore,
    public attachments: AttachmentStore,
    /** Card and board logs (files, or the shared database). */
    public logs: LogStore,
    readonly cardStates: CardStates,
    /** Agents' claims on cards: a copy in memory of the claim store, for reads. */
    readonly claims: Claims,
    readonly options: WorkspaceOptions,
  ) {
    this.cardWriteGuards.add((cards) => refuseOtherAgentsClaims(this, cards));
  }

  /** Card files and `.kanban.json` versions that do not parse (GET /api/workspace `invalidFiles`). */
  get invalidFiles(): InvalidFile[] {
    return this.invalid;
  }

  set invalidFiles(files: InvalidFile[]) {
    const before = this.invalid;
    this.invalid = files;
    if (sameInvalidFiles(before, files)) return;
    for (const listener of this.invalidFilesListeners) {
      try {
        listener(files);
      } catch (error) {
        log.error('kanban: an invalid-files listener failed:', error);
      }
    }
  }

  get kanbanDir(): string {
    return path.join(this.root, '.kanban');
  }

  get configPath(): string {
    return path.join(this.root, '.kanban.json');
  }

  static async open(options: WorkspaceOptions): Promise<Workspace> {
    const root = path.resolve(options.root);
    const stat = await fs.stat(root).catch(() => null);
    if (!stat?.isDirectory()) throw new Error(`workspace folder ${root} does not exist or is not a folder`);
    const { config, text } = await loadConfigFile(path.join(root, '.kanban.json'));
    const context: ProviderContext = {
      root,
      kanbanDir: path.join(root, '.kanban'),
      plugins: config.plugins,
      readOnly: options.readOnly,
    };
    const store = await createCardStore(context);
    const shared = await openShared(store, config);
    const attachments = await createAttachmentStore(context, store);
    const logs = createLogStore(context, store);
    const cardStates = new CardStates(await createCardStateStore(context, store));
    if (!options.readOnly) {
      await removeOrphanTempFiles(root);
      await removeOrphanTempFiles(path.join(root, '.kanban', '.state'));
    }
    const claims = new Claims(await openClaimStore(root, store));
    const workspace = new Workspace(
      root,
      shared?.config ?? config,
      store,
      attachments,
      logs,
      cardStates,
      claims,
      options,
    );
    workspace.configText = text;
    noteConfigWarnings(workspace, unknownConfigKeysIn(text));
    if (shared) {
      workspace.shared = { store: shared.store, version: shared.version, stopFollowing: null };
      followSharedConfig(workspace, workspace.shared, (store as { pollIntervalMs?: number }).pollIntervalMs ?? 1000);
    }
    workspace.identityProvider = loadIdentityProvider(config.plugins['auth.identity'], root);
    await workspace.reload();
    await cardStates.load();
    await claims.load();
    followDatabaseClaims(workspace);
    const sharedEvents = store.sharedEvents?.();
    if (sharedEvents) {
      const globalEvents = new GlobalEventLog(
        workspace,
        sharedEvents,
        (store as { pollIntervalMs?: number }).pollIntervalMs ?? 1000,
      );
      await globalEvents.start();
      workspace.globalEvents = globalEvents;
      workspace.live = globalEvents;
    }
    // A failure leaves the files where they are, still served: the next start tries again.
    if (!options.readOnly)
      await adoptLocalFiles({
        attachments,
        logs,
        cards: () => workspace.index.allCards(),
        boardIds: workspace.config.boards.map((board) => board.id),
      }).catch((error) =>
        log.warn(`kanban: could not move older local files into the database: ${(error as Error).message}`),
      );
    return workspace;
  }

  /** Rebuild the index from the store (start-up, or after a provider switch). */
  async reload(): Promise<void> {
    const { cards, invalid, duplicates = [] } = await this.store.loadAll();
    this.index.clear();
    this.index.fill(cards);
    this.invalidFiles = invalid;
    for (const file of invalid) log.warn(`kanban: skipped ${file.path}: ${file.reason}`);
    for (const d of duplicates)
      log.warn(
        `kanban: ${d.path} claims id ${d.id}, which ${d.sharedWith} holds; served as ${d.servedAs} until its file is renamed (its next write, or kanban doctor --fix)`,
      );
  }

  /**
   * Move the leftovers of moves a crash interrupted out of the boards folder: the only repair a
   * start may make (the standalone server's), as they are provably second files of served cards.
   */
  async recoverCrashLeftovers(): Promise<RecoveredFile[]> {
    const recovered = await this.mutate(async () => (await this.store.recoverStaleCopies?.()) ?? []);
    this.recoveredFiles = [...this.recoveredFiles, ...recovered];
    return recovered;
  }

  /**
   * Run a mutation after every earlier one has finished. A mutation may run others inside itself
   * (a precondition check wrapped around an operation): those run at once, as part of it.
   */
  mutate<T>(operation: () => Promise<T>): Promise<T> {
    const running = runningMutations.getStore();
    if (running?.get(this)?.running) return operation();
    const inQueue = () => {
      const token = { running: true };
      // Work the mutation starts but does not await (timers) must queue like anything else.
      const mine = new Map(runningMutations.getStore() ?? []).set(this, token);
      return runningMutations.run(mine, operation).finally(() => (token.running = false));
    };
    const run = this.queue.then(inQueue, inQueue);
    this.queue = run.catch(() => undefined);
    return run.finally(() => this.barriersBeforeAnswer());
  }

  private barriersBeforeAnswer(): Promise<unknown> | undefined {
    let waits: Promise<void>[] | undefined;
    for (const barrier of this.beforeAnswer) {
      const wait = barrier();
      if (wait) (waits ??= []).push(wait);
    }
    return waits && Promise.all(waits);
  }

  /**
   * Apply a change to a copy of the config, write it atomically, then make it current. The file
   * must still be the one last read or written: a hand edit (or a file that does not parse) is
   * adopted and the change refused, never overwritten.
   */
  async updateConfig(change: (draft: KanbanConfig) => void): Promise<KanbanConfig> {
    if (this.shared) return updateSharedConfig(this, this.shared, change);
    await ensureConfigCurrent(this);
    const draft = structuredClone(this.config);
    change(draft);
    for (const prepare of this.beforeConfigWrite) await prepare(draft);
    const text = serializeConfig(draft);
    // The temp file goes under .kanban/.state/, out of the root folder git shows.
    await ensureSelfIgnoringDir(this.stateDir);
    await createKanbanGitignoreIfMissing(this.kanbanDir);
    const written = await writeFileIfUnchanged(this.configPath, text, () => configUnchangedNow(this), {
      tempDir: this.stateDir,
    });
    if (!written) {
      await ensureConfigCurrent(this);
      throw new FileConflictError(
        '.kanban.json changed while it was being written; nothing was written. Apply your change again.',
      );
    }
    this.configText = text;
    this.config = draft;
    // The written file keeps only the unknown top-level keys: the warnings follow what it holds now.
    noteConfigWarnings(this, unknownConfigKeysIn(text));
    return draft;
  }

  /**
   * Read the configuration from the database this workspace has just moved its cards into (a
   * migration), as a start over it would: seeded from the configuration served now unless another
   * instance seeded it first; from then on changes are written there, and other instances' followed.
   */
  async joinSharedDatabase(): Promise<void> {
    const sharedStore = this.store.sharedConfig?.();
    if (!sharedStore || this.shared) return;
    const { config, version } = await adoptSharedConfig(sharedStore, this.config);
    this.config = config;
    this.shared = { store: sharedStore, version, stopFollowing: null };
    followSharedConfig(this, this.shared, (this.store as { pollIntervalMs?: number }).pollIntervalMs ?? 1000);
  }

  /**
   * Stop reading the configuration and the event log from the shared database this workspace
   * leaves (a migration out of it): `.kanban.json` holds the whole configuration again, and clients
   * hear this instance's own events.
   */
  leaveSharedDatabase(): void {
    stopFollowingSharedConfig(this.shared);
    this.shared = null;
    this.globalEvents?.detach();
  }

  board(boardId: string): BoardConfig {
    const board = this.config.boards.find((b) => b.id === boardId);
    if (!board) throw new NotFoundError(`board "${boardId}" not found`);
    return board;
  }

  get defaultBoardId(): string {
    return this.config.defaultBoard;
  }

  /** Emit one event; task-related events carry the card's full read model. */
  emit<K extends EventName>(event: K, boardId: string | null, data: Payload<K>, ...card: CardArgument<K, Card>): void {
    // The same argument list with the card turned into its read model (TypeScript cannot follow K through map).
    const views = card.map((c) => taskView(this, c, { withComments: true })) as CardArgument<K, TaskView>;
    this.events.emit(event, boardId, data, ...views);
  }

  get stateDir(): string {
    return path.join(this.kanbanDir, '.state');
  }

  async close(): Promise<void> {
    stopFollowingSharedConfig(this.shared);
    // Before the queue drains: a poll must not queue a read of claims behind it, over a closing store.
    this.claims.close();
    await this.queue.catch(() => undefined);
    this.globalEvents?.stop();
    await this.globalEvents?.flush();
    // Card state first: its last saves may go through the card store's database connection.
    await this.cardStates.close();
    await Promise.all([this.store.close(), this.attachments.close()]);
  }
}

/** The shared configuration of a store that several instances use, or null for one of its own. */
async function openShared(store: CardStore, local: KanbanConfig) {
  const sharedStore = store.sharedConfig?.();
  if (!sharedStore) return null;
  try {
    return { store: sharedStore, ...(await adoptSharedConfig(sharedStore, local)) };
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}

async function loadConfigFile(file: string): Promise<{ config: KanbanConfig; text: string | null }> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { config: defaultConfig(), text: null };
    throw error;
  }
  try {
    return { config: parseConfig(text), text };
  } catch (error) {
    if (error instanceof ConfigError)
      throw new InvalidConfigFileError(`${file} is invalid at ${error.message}`, {
        path: '.kanban.json',
        reason: error.message,
        ...(error.line ? { line: error.line } : {}),
      });
    throw error;
  }
}

/** The workspace cannot open because `.kanban.json` does not parse; `invalid` says where. */
export class InvalidConfigFileError extends Error {
  constructor(
    message: string,
    readonly invalid: InvalidFile,
  ) {
    super(message);
  }
}

function sameInvalidFiles(a: readonly InvalidFile[], b: readonly InvalidFile[]): boolean {
  return (
    a.length === b.length &&
    a.every((file, i) => file.path === b[i].path && file.reason === b[i].reason && file.line === b[i].line)
  );
}
