import { log } from '../../server/core/log';
import { KanbanService } from './kanbanService';

/** A workspace folder, reduced to what the service layer needs (no vscode types here). */
export interface FolderRef {
  /** Stable identity: the folder's URI as a string. */
  key: string;
  name: string;
  fsPath: string;
}

/** Called when a folder's service is replaced (new location) or closed: null means none now. */
export type ServiceReplacedListener = (folder: FolderRef, service: KanbanService | null) => void;

interface Entry {
  folder: FolderRef;
  root: string;
  /** Opened while the workspace was not trusted (Restricted Mode). */
  readOnly: boolean;
  opening: Promise<KanbanService>;
  service: KanbanService | null;
}

/**
 * One KanbanService per workspace folder, opened on first use and shared by every panel, the
 * sidebar and the HTTP server. When the configured location of a folder changes, its service is
 * closed and a new one opened over the new root; listeners are told so they can reconnect.
 */
export class FolderServices {
  private entries = new Map<string, Entry>();
  private listeners = new Set<ServiceReplacedListener>();
  private disposed = false;

  constructor(
    private readonly rootOf: (folder: FolderRef) => string,
    /** Told how long each open took, for the log (a large board's load time is worth knowing). */
    private readonly opened: (folder: FolderRef, service: KanbanService, ms: number) => void = () => undefined,
    /** Told when a folder's service cannot open (a `.kanban.json` that does not parse, say). */
    private readonly failed: (folder: FolderRef, root: string, error: unknown) => void = () => undefined,
    /** Whether services open read-only now (the workspace is not trusted). */
    private readonly readOnly: () => boolean = () => false,
  ) {}

  /** The folder's service, opening it if needed; concurrent callers share one open. */
  get(folder: FolderRef): Promise<KanbanService> {
    if (this.disposed) return Promise.reject(new Error('the kanban extension is shutting down'));
    const root = this.rootOf(folder);
    const existing = this.entries.get(folder.key);
    if (existing && existing.root === root) return existing.opening;
    if (existing) void this.replace(existing, null);
    const started = Date.now();
    const readOnly = this.readOnly();
    const entry: Entry = {
      folder,
      root,
      readOnly,
      service: null,
      opening: Promise.resolve(null as unknown as KanbanService),
    };
    entry.opening = KanbanService.open(root, { readOnly }).then(
      (service) => {
        // Closed or replaced while opening: nobody will ever use this one.
        if (this.entries.get(folder.key) !== entry) {
          void service.close();
          throw new Error(`the kanban service for ${folder.name} was closed while it opened`);
        }
        entry.service = service;
        this.opened(folder, service, Date.now() - started);
        return service;
      },
      (error: unknown) => {
        if (this.entries.get(folder.key) === entry) {
          this.entries.delete(folder.key);
          this.failed(folder, root, error);
        }
        throw error;
      },
    );
    this.entries.set(folder.key, entry);
    return entry.opening;
  }

  /** The folder's service if it is already open (no side effects). */
  peek(folder: FolderRef): KanbanService | null {
    return this.entries.get(folder.key)?.service ?? null;
  }

  openFolders(): FolderRef[] {
    return [...this.entries.values()].filter((e) => e.service).map((e) => e.folder);
  }

  onDidReplace(listener: ServiceReplacedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * After a settings change: services whose root moved are reopened over the new root; after trust
   * was granted, read-only services are reopened able to write.
   */
  async refresh(): Promise<void> {
    const readOnly = this.readOnly();
    const moved = [...this.entries.values()].filter(
      (entry) => this.rootOf(entry.folder) !== entry.root || entry.readOnly !== readOnly,
    );
    await Promise.all(
      moved.map(async (entry) => {
        await this.replace(entry, null);
        const service = await this.get(entry.folder).catch(() => null);
        if (service) this.tell(entry.folder, service);
      }),
    );
  }

  /** A folder left the workspace. */
  async close(folderKey: string): Promise<void> {
    const entry = this.entries.get(folderKey);
    if (entry) await this.replace(entry, null);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.entries.values()].map((entry) => this.replace(entry, null)));
    this.listeners.clear();
  }

  private async replace(entry: Entry, next: KanbanService | null): Promise<void> {
    if (this.entries.get(entry.folder.key) === entry) this.entries.delete(entry.folder.key);
    const service = entry.service ?? (await entry.opening.catch(() => null));
    if (service) {
      this.tell(entry.folder, next);
      await service.close();
    }
  }

  private tell(folder: FolderRef, service: KanbanService | null): void {
    for (const listener of this.listeners) {
      try {
        listener(folder, service);
      } catch (error) {
        log.error('kanban: service listener failed:', error);
      }
    }
  }
}
