import type { ApiClient } from '../client/apiClient';

interface Entry {
  opening: Promise<ApiClient>;
  /** Calls running on it now: an evicted workspace closes when the last of them ends. */
  users: number;
  evicted: boolean;
}

/**
 * The workspaces a long-lived MCP host opened for tools' `workspace` argument, each once, by its
 * root folder. Each holds a file watcher and an index of every card, so at most `capacity` stay
 * open: past that the least recently used one is closed (after the calls still using it end), and
 * is opened again if it is named again.
 */
export class WorkspacePool {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly open: (root: string) => Promise<ApiClient>,
    private readonly capacity: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Run `work` on the workspace at `root`, opening it first if it is not open. */
  async use<T>(root: string, work: (client: ApiClient) => Promise<T>): Promise<T> {
    const entry = this.entries.get(root) ?? this.add(root);
    // Map order is use order: the first entry is the least recently used.
    this.entries.delete(root);
    this.entries.set(root, entry);
    entry.users++;
    try {
      const client = await entry.opening;
      this.evictOverCapacity();
      return await work(client);
    } finally {
      entry.users--;
      if (entry.evicted && entry.users === 0) void this.closeEntry(root, entry);
    }
  }

  /** How many workspaces are open (or opening) now. */
  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    const open = [...this.entries];
    this.entries.clear();
    await Promise.all(open.map(([root, entry]) => this.closeEntry(root, entry)));
  }

  private add(root: string): Entry {
    const entry: Entry = { opening: this.open(root), users: 0, evicted: false };
    // A folder that failed to open is tried afresh next time, not answered from a rejected promise.
    entry.opening.catch(() => {
      if (this.entries.get(root) === entry) this.entries.delete(root);
    });
    this.entries.set(root, entry);
    return entry;
  }

  private evictOverCapacity(): void {
    for (const [root, entry] of this.entries) {
      if (this.entries.size <= this.capacity) return;
      this.entries.delete(root);
      entry.evicted = true;
      if (entry.users === 0) void this.closeEntry(root, entry);
    }
  }

  private async closeEntry(root: string, entry: Entry): Promise<void> {
    const client = await entry.opening.catch(() => undefined);
    await client?.close().catch((error: Error) => this.log(`closing ${root}: ${error.message}`));
  }
}
