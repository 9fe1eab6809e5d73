import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../core/atomicFile';
import type { Workspace } from '../../service/workspace';
import { ensureStateDir } from '../../storage/state/fileCardStateStore';
import type { SharedWebhookStore } from '../../storage/webhookDeliveryStore';
import type { CardStore } from '../../storage/cardStore';
import { storedReference } from './secrets';

/** The file holds signing keys: only the service's own user may read it. */
const FILE_MODE = 0o600;

/**
 * Literal webhook secrets, kept in `.kanban/.state/secrets.json` (git-ignored, mode 0600) so that
 * `.kanban.json`, which users commit, holds only a `${secret:<name>}` reference. The file is one
 * JSON object, name -> secret. Reads are cached until the file changes (a write by another process
 * or by hand replaces it, which changes its inode and time).
 */
export class SecretStore {
  private cache: { stamp: string; values: Record<string, string> } | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly stateDir: string) {}

  get file(): string {
    return path.join(this.stateDir, 'secrets.json');
  }

  async get(name: string): Promise<string | undefined> {
    const values = await this.read();
    return Object.hasOwn(values, name) ? values[name] : undefined;
  }

  /** Store or replace the secrets in `set` and drop those named in `drop`, in one durable write. */
  update(set: Record<string, string>, drop: string[] = []): Promise<void> {
    const run = this.writing.then(async () => {
      const values = { ...(await this.read()) };
      Object.assign(values, set);
      for (const name of drop) delete values[name];
      const sorted = Object.fromEntries(Object.entries(values).sort(([a], [b]) => a.localeCompare(b)));
      await ensureStateDir(this.stateDir);
      await writeFileAtomic(this.file, JSON.stringify(sorted, null, 2) + '\n', { mode: FILE_MODE });
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  /** The stored secrets; {} without a file. A file that does not parse is an error, never overwritten. */
  private async read(): Promise<Record<string, string>> {
    const stat = await fs.stat(this.file, { bigint: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!stat) return {};
    const stamp = `${stat.ino}:${stat.mtimeNs}:${stat.size}`;
    if (this.cache?.stamp === stamp) return this.cache.values;
    const text = await fs.readFile(this.file, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(
        `${this.file} is not valid JSON (${(error as Error).message}); fix or remove it, then set the webhook secrets again`,
      );
    }
    const valid =
      typeof parsed === 'object' &&
      parsed !== null &&
      !Array.isArray(parsed) &&
      Object.values(parsed).every((value) => typeof value === 'string');
    if (!valid) throw new Error(`${this.file} must be a JSON object of secret names to strings`);
    this.cache = { stamp, values: parsed as Record<string, string> };
    return this.cache.values;
  }
}

/** Where the registry writes literal secrets and the queue reads them. */
export interface SecretKeeper {
  get(name: string): Promise<string | undefined>;
  update(set: Record<string, string>, drop?: string[]): Promise<void>;
}

/**
 * Over a shared database the secrets live in it, so that any instance can sign any delivery. A
 * name missing there is looked up in this instance's state file: the instance that seeded the
 * shared configuration from its `.kanban.json` holds the secrets that configuration refers to.
 */
class SharedSecrets implements SecretKeeper {
  constructor(
    private readonly shared: SharedWebhookStore,
    private readonly local: SecretStore,
  ) {}

  async get(name: string): Promise<string | undefined> {
    return (await this.shared.secret(name)) ?? this.local.get(name);
  }

  update(set: Record<string, string>, drop: string[] = []): Promise<void> {
    return this.shared.updateSecrets(set, drop);
  }
}

/** One store per open workspace, shared by the registry (writes) and the queue (reads). */
const stores = new WeakMap<Workspace, SecretKeeper>();

export function secretStoreFor(ws: Workspace): SecretKeeper {
  let store = stores.get(ws);
  if (!store) {
    store = keeperOver(ws.store, ws.stateDir);
    stores.set(ws, store);
  }
  return store;
}

function keeperOver(cards: CardStore, stateDir: string): SecretKeeper {
  const local = new SecretStore(stateDir);
  const shared = cards.sharedWebhooks?.();
  return shared ? new SharedSecrets(shared, local) : local;
}

/**
 * Before a migration switches to `target`: every stored secret the webhooks refer to is written
 * where the workspace will keep secrets once it serves `target` (its database, or the state file),
 * so that each delivery after the switch, and every instance over that database, signs as before.
 */
export async function carrySecrets(ws: Workspace, target: CardStore): Promise<void> {
  if (!ws.store.sharedWebhooks && !target.sharedWebhooks) return;
  const from = secretStoreFor(ws);
  const carried: Record<string, string> = {};
  for (const hook of ws.config.webhooks) {
    const name = hook.secret === undefined ? null : storedReference(hook.secret);
    const value = name === null ? undefined : await from.get(name);
    if (name !== null && value !== undefined) carried[name] = value;
  }
  if (Object.keys(carried).length > 0) await keeperOver(target, ws.stateDir).update(carried);
}

/** Once the workspace serves another store: the next look-up opens the keeper over that one. */
export function forgetSecretStore(ws: Workspace): void {
  stores.delete(ws);
}
