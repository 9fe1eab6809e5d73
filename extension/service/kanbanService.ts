import { Dispatcher } from '../../server/api/dispatch';
import { FileWatcher } from '../../server/live/fileWatcher';
import { startWebhooks, type RunningWebhooks } from '../../server/live/webhooks';
import { startAutoArchive } from '../../server/live/autoArchive';
import { applyExternalChanges } from '../../server/service/external';
import { Workspace } from '../../server/service/workspace';
import { restrictedOpenProblem } from './restrictedOpen';

/** What the service may do to its folder. */
export interface ServiceOptions {
  /**
   * Restricted Mode: the folder is read as it is, and nothing runs that the repository decides
   * (plugins, webhooks, auto-archive). The host refuses writes; see extension/trust.
   */
  readOnly?: boolean;
}

const NO_WEBHOOKS: RunningWebhooks = { stop: async () => undefined };

/**
 * The service of one kanban root inside the extension host: the same Workspace, file watching,
 * outside-change following and webhook delivery as the standalone server, without HTTP. Every
 * panel, the sidebar and the optional HTTP server share this one instance, so there is exactly one
 * in-memory index and one event stream per root.
 */
export class KanbanService {
  readonly dispatcher: Dispatcher;
  private closing: Promise<void> | null = null;

  private constructor(
    readonly workspace: Workspace,
    private readonly watcher: FileWatcher,
    private readonly stopFollowingStore: (() => void) | undefined,
    private readonly webhooks: RunningWebhooks,
  ) {
    this.dispatcher = new Dispatcher(workspace);
  }

  static async open(root: string, options: ServiceOptions = {}): Promise<KanbanService> {
    const refused = options.readOnly ? await restrictedOpenProblem(root) : null;
    if (refused) throw new Error(refused);
    const workspace = await Workspace.open({ root, readOnly: options.readOnly });
    const watcher = new FileWatcher(workspace);
    try {
      await watcher.start();
      // Stores with their own change feed (SQLite, MySQL) report other processes' writes here.
      const stop = workspace.store.subscribe?.((change) => void applyExternalChanges(workspace, [change]));
      // Deliveries go to addresses .kanban.json names, and archiving writes: only once trusted.
      const webhooks = options.readOnly ? NO_WEBHOOKS : await startWebhooks(workspace);
      // Boards with autoArchiveDays: archived now and hourly, as by the standalone server.
      const stopAutoArchive = options.readOnly ? () => undefined : await startAutoArchive(workspace);
      const stopBoth = () => {
        stop?.();
        stopAutoArchive();
      };
      return new KanbanService(workspace, watcher, stopBoth, webhooks);
    } catch (error) {
      await watcher.close().catch(() => undefined);
      await workspace.close();
      throw error;
    }
  }

  /** Opened for Restricted Mode (see ServiceOptions). */
  get readOnly(): boolean {
    return this.workspace.options.readOnly === true;
  }

  get root(): string {
    return this.workspace.root;
  }

  get revision(): number {
    return this.workspace.events.revision;
  }

  /** Stops watching and delivering, then closes the stores; safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stopFollowingStore?.();
      await this.watcher.close();
      await this.webhooks.stop();
      await this.workspace.close();
    })();
    return this.closing;
  }
}
