import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { ServiceUnavailableError } from '../../core/errors';

/**
 * Mutual exclusion between processes through the file system: the lock is a file created with
 * O_CREAT|O_EXCL (`open(..., 'wx')`), which exactly one process can create, holding who made it and
 * when; it is removed after. A lock left by a process that died (its pid gone on this host) or older
 * than `staleMs` (a process that hangs, or one on another host) is broken, under a second lock so two
 * processes never both break it and then remove each other's fresh one.
 */

export interface FileLockOptions {
  /** A lock held this long is taken to be abandoned (the work it guards takes milliseconds). */
  staleMs?: number;
  /** How long to wait for the lock before giving up with 503. */
  timeoutMs?: number;
}

interface LockOwner {
  pid: number;
  host: string;
  time: number;
  nonce: string;
}

const HOST = hostname();
const DEFAULT_STALE_MS = 10_000;
const DEFAULT_TIMEOUT_MS = 30_000;

/** Run `work` holding the lock file `lockPath` (its folder must exist). */
export async function withFileLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const owner = await acquire(lockPath, options.staleMs ?? DEFAULT_STALE_MS, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    return await work();
  } finally {
    await release(lockPath, owner);
  }
}

async function acquire(lockPath: string, staleMs: number, timeoutMs: number): Promise<LockOwner> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const owner: LockOwner = { pid: process.pid, host: HOST, time: Date.now(), nonce: randomBytes(8).toString('hex') };
    if (await tryCreate(lockPath, JSON.stringify(owner))) return owner;
    const held = await readLock(lockPath);
    // Broken: try again at once. Not broken (another process is breaking it): wait like anyone.
    if (held && isStale(held, staleMs) && (await breakStale(lockPath, held, staleMs))) continue;
    if (Date.now() > deadline) {
      const who = held?.owner ? `process ${held.owner.pid} on ${held.owner.host}` : 'another process';
      throw new ServiceUnavailableError(
        `the claims are locked by ${who} (${lockPath}); nothing was changed. Try again, or remove the file if that process is gone`,
      );
    }
    await pause(attempt);
  }
}

/** Create the file only if it does not exist; false when another process holds it. */
async function tryCreate(file: string, text: string): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  let written = false;
  try {
    await handle.writeFile(text);
    written = true;
  } finally {
    await handle.close();
    // A lock made but left empty (a full disk) would hold everyone off until it went stale.
    if (!written) await fs.rm(file, { force: true });
  }
  return true;
}

interface HeldLock {
  text: string;
  owner: LockOwner | null;
  /** The file's age: a lock whose content is not written yet (or is garbage) is judged by it. */
  mtimeMs: number;
}

async function readLock(file: string): Promise<HeldLock | null> {
  try {
    const [text, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
    let owner: LockOwner | null = null;
    try {
      owner = JSON.parse(text) as LockOwner;
    } catch {
      owner = null; // still being written, or broken
    }
    return { text, owner, mtimeMs: stat.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null; // released meanwhile
    throw error;
  }
}

function isStale(held: HeldLock, staleMs: number): boolean {
  const since = held.owner && Number.isFinite(held.owner.time) ? held.owner.time : held.mtimeMs;
  if (Date.now() - since > staleMs) return true;
  return held.owner !== null && held.owner.host === HOST && !isRunning(held.owner.pid);
}

/** As atomicFile's orphan check: signal 0 tests a pid without touching the process. */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Remove a stale lock, but only the one judged stale: under `<lock>.break` the lock is read again
 * and removed only while it still holds the same content, so a fresh lock another process made in
 * between survives. A `.break` file older than `staleMs` was left by a crash and is removed.
 * Answers whether the lock is gone (worth trying again at once).
 */
async function breakStale(lockPath: string, judged: HeldLock, staleMs: number): Promise<boolean> {
  const breaker = `${lockPath}.break`;
  if (!(await tryCreate(breaker, String(process.pid)))) {
    const stat = await fs.stat(breaker).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > staleMs) await fs.rm(breaker, { force: true });
    return false;
  }
  try {
    const now = await readLock(lockPath);
    if (now?.text !== judged.text) return now === null;
    await fs.rm(lockPath, { force: true });
    return true;
  } finally {
    await fs.rm(breaker, { force: true });
  }
}

async function release(lockPath: string, owner: LockOwner): Promise<void> {
  // Only our own: a lock broken as stale (we hung past staleMs) may be another process's by now.
  const held = await readLock(lockPath);
  if (held?.owner?.nonce === owner.nonce) await fs.rm(lockPath, { force: true });
}

/** A short random wait that grows with the attempts (at most ~50 ms), so waiting processes do not move in lockstep. */
function pause(attempt: number): Promise<void> {
  const ceiling = Math.min(2 + attempt * 4, 50);
  return new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * ceiling));
}
