import { existsSync, watch, type FSWatcher } from 'node:fs';
import { log } from '../core/log';
import { announceExpiredClaims, followStoredClaims } from '../service/claimEvents';
import type { Workspace } from '../service/workspace';

/** Changes to claims arrive in bursts (the lock, the claim file, the lock again): one reload after a quiet moment. */
const QUIET_MS = 25;
/** While the claims folder does not exist yet, how often to look for it (it is never made by a read). */
const FOLDER_POLL_MS = 1000;

/**
 * Keeps a long-lived process's claims (`claim` in the read model) in step with other processes'
 * (an agent in another worktree, a `kanban pick` beside the server), with their `task.claimed` and
 * `task.released` events, and announces leases that run out. Every change to the store happens
 * under its lock file, made and removed in the watched folder, so one folder watch sees them all.
 * A database store has no folder: it reports other instances' changes itself (service/claimEvents.ts
 * followDatabaseClaims), and this watcher only announces expiries.
 */
export class ClaimWatcher {
  private watcher: FSWatcher | null = null;
  private reloadTimer: NodeJS.Timeout | null = null;
  private folderTimer: NodeJS.Timeout | null = null;
  private expiryTimer: NodeJS.Timeout | null = null;
  private stopFollowing: (() => void) | null = null;
  private closed = false;
  /** The folder watched (or waited for), or undefined for a store without one (a database reports its changes itself). */
  private watched: string | undefined;

  constructor(private readonly ws: Workspace) {}

  start(): void {
    this.stopFollowing = this.ws.claims.follow(() => {
      this.followStoreSwitch();
      this.scheduleExpiry();
    });
    this.scheduleExpiry();
    this.watchFolder();
  }

  /** A migration of the cards moves the claims (to a database, or back to a folder): watch where they are now. */
  private followStoreSwitch(): void {
    if (this.ws.claims.store.watchPath === this.watched || this.closed) return;
    this.watcher?.close();
    this.watcher = null;
    if (this.folderTimer) clearTimeout(this.folderTimer);
    this.folderTimer = null;
    this.watchFolder();
  }

  private watchFolder(): void {
    const dir = this.ws.claims.store.watchPath;
    this.watched = dir;
    if (!dir || this.closed) return;
    try {
      this.watcher = watch(dir, { persistent: false }, () => this.changed());
      this.watcher.on('error', () => {
        this.watcher?.close();
        this.watcher = null;
        this.waitForFolder(dir);
      });
    } catch {
      this.waitForFolder(dir);
    }
  }

  private waitForFolder(dir: string): void {
    if (this.closed) return;
    this.folderTimer = setTimeout(() => {
      this.folderTimer = null;
      if (!existsSync(dir)) return this.waitForFolder(dir);
      this.watchFolder();
      this.changed();
    }, FOLDER_POLL_MS);
    this.folderTimer.unref();
  }

  private changed(): void {
    if (this.reloadTimer || this.closed) return;
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      this.ws
        .mutate(() => followStoredClaims(this.ws))
        .catch((error) => log.warn('kanban: reading the claims failed:', error));
    }, QUIET_MS);
    this.reloadTimer.unref();
  }

  private scheduleExpiry(): void {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.expiryTimer = null;
    // A read may drop an expired claim before this timer fires (and so move the next expiry on):
    // what it dropped is still to be announced, at once.
    const at = this.ws.claims.hasExpired ? Date.now() : this.ws.claims.nextExpiryMs;
    if (this.closed || !Number.isFinite(at)) return;
    this.expiryTimer = setTimeout(
      () => {
        this.expiryTimer = null;
        this.ws
          .mutate(() => announceExpiredClaims(this.ws))
          .catch((error) => log.warn('kanban: announcing expired claims failed:', error))
          // Handing the announced ones over changes no claim, so no follower call comes: without this,
          // the next lease or session to end (another agent's) would never be announced.
          .finally(() => this.scheduleExpiry());
      },
      Math.max(0, at - Date.now()) + 5,
    );
    this.expiryTimer.unref();
  }

  close(): void {
    this.closed = true;
    this.stopFollowing?.();
    this.watcher?.close();
    for (const timer of [this.reloadTimer, this.folderTimer, this.expiryTimer]) if (timer) clearTimeout(timer);
  }
}
