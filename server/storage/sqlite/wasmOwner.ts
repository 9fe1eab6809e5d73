import { promises as fs, rmSync } from 'node:fs';
import * as os from 'node:os';
import { SqliteOpenError } from './sqliteConnection';

/**
 * The WebAssembly driver has no shared-memory index, so it keeps a database file to itself (SQLite's
 * exclusive locking mode): while it has the file open, its lock is a `<file>.lock` folder, which
 * the native driver's POSIX locks do not see. Both drivers therefore look at these markers before
 * opening, so a native process and VS Code never write one file at the same time:
 * - `<file>.lock` + `<file>.owner` (pid and host): the WebAssembly driver has it;
 * - `<file>-shm`: a native process has it open in WAL mode (SQLite removes it on a clean close).
 */
interface Owner {
  pid: number;
  host: string;
}

const lockDir = (file: string) => `${file}.lock`;
const ownerFile = (file: string) => `${file}.owner`;

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(file: string): Promise<Owner | null> {
  try {
    const owner = JSON.parse(await fs.readFile(ownerFile(file), 'utf8')) as Owner;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' ? owner : null;
  } catch {
    return null;
  }
}

/**
 * The WebAssembly owner of `file` that is still running, or null. A lock left by a process that
 * died (VS Code killed, a crash) is removed here: nobody else would ever remove it.
 */
export async function liveWasmOwner(file: string): Promise<Owner | null> {
  if (!(await exists(lockDir(file)))) return null;
  const owner = await readOwner(file);
  const ours = owner?.pid === process.pid && owner.host === os.hostname();
  if (owner && !ours && (owner.host !== os.hostname() || isAlive(owner.pid))) return owner;
  await fs.rm(lockDir(file), { recursive: true, force: true });
  await fs.rm(ownerFile(file), { force: true });
  return null;
}

/** Native driver: refuse a file the WebAssembly driver has open in another process. */
export async function refuseWhileWasmOwns(file: string): Promise<void> {
  const owner = await liveWasmOwner(file);
  if (!owner) return;
  throw new SqliteOpenError(
    `${file} is open in VS Code's built-in SQLite (process ${owner.pid} on ${owner.host}), which keeps the file to itself; ` +
      'close the board in that VS Code window, or reach its service through "Kanban: Start API Server"',
  );
}

/** WebAssembly driver: refuse a file another process has open (either driver). */
export async function refuseWhileOthersOwn(file: string): Promise<void> {
  const owner = await liveWasmOwner(file);
  if (owner) {
    throw new SqliteOpenError(
      `${file} is open in another VS Code window (process ${owner.pid} on ${owner.host}); close the board there first`,
    );
  }
  if (await exists(`${file}-shm`)) {
    throw new SqliteOpenError(
      `${file} is open in a kanban server or command that uses the native SQLite driver (${file}-shm exists), and VS Code's built-in SQLite cannot share a file with it; ` +
        'stop that process and try again (if none runs, any kanban command on this folder closes the file cleanly)',
    );
  }
}

export async function writeOwner(file: string): Promise<void> {
  const owner: Owner = { pid: process.pid, host: os.hostname() };
  const temp = `${ownerFile(file)}.${process.pid}.tmp`;
  await fs.writeFile(temp, JSON.stringify(owner));
  await fs.rename(temp, ownerFile(file));
}

/** Synchronous, so a reopen right after a close never sees its new owner file removed. */
export function removeOwner(file: string): void {
  rmSync(ownerFile(file), { force: true });
}
