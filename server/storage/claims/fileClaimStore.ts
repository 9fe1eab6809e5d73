import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { StoredClaim } from '../../core/claims';
import type { StoredSession } from '../../core/sessions';
import { isValidSlugId } from '../../core/ids';
import { log } from '../../core/log';
import type { ClaimStore, ClaimTransaction } from './claimStore';
import { withFileLock } from './fileLock';

/** Sessions' folder in the claims folder: a dot name is never a board id, nor a sub-folder workspace's `@...`. */
const SESSIONS = '.sessions';

/**
 * Claims as files: `<dir>/<board id>/<card id>.json`, one per claimed card, agent sessions as
 * `<dir>/.sessions/<board id>/<card id>.json`, and `<dir>/.lock` while a process changes either. Nothing here is tracked by git (the folder is in the git common directory
 * or under `.kanban/.state/`). A claim file is replaced by a rename, so a reader sees the old or the
 * new claim, never a mix; no fsync, as a claim lost to a power cut only frees its card early.
 */
export class FileClaimStore implements ClaimStore {
  readonly kind = 'files';

  constructor(
    readonly dir: string,
    /** Made before the first write when the folder is new (`.kanban/.state/` ignores itself). */
    private readonly prepare: () => Promise<void> = async () => undefined,
  ) {}

  get location(): string {
    return this.dir;
  }

  get watchPath(): string {
    return this.dir;
  }

  private fileOf(boardId: string, cardId: string, base = this.dir): string {
    // Card ids of hand-written files may hold any character: the name is encoded, the id is in the file.
    return path.join(base, boardId, `${encodeURIComponent(cardId)}.json`);
  }

  private sessionFileOf(boardId: string, cardId: string): string {
    return this.fileOf(boardId, cardId, path.join(this.dir, SESSIONS));
  }

  async get(boardId: string, cardId: string): Promise<StoredClaim | null> {
    return readClaim(this.fileOf(boardId, cardId));
  }

  async list(): Promise<StoredClaim[]> {
    return listIn(this.dir, readClaim);
  }

  async listSessions(): Promise<StoredSession[]> {
    return listIn(path.join(this.dir, SESSIONS), readSession);
  }

  async exclusive<T>(work: (claims: ClaimTransaction) => Promise<T>): Promise<T> {
    await this.prepare();
    await fs.mkdir(this.dir, { recursive: true });
    return withFileLock(path.join(this.dir, '.lock'), () =>
      work({
        list: () => this.list(),
        get: (boardId, cardId) => this.get(boardId, cardId),
        put: (claim) => this.put(claim),
        remove: (boardId, cardId) => fs.rm(this.fileOf(boardId, cardId), { force: true }),
        getSession: (boardId, cardId) => readSession(this.sessionFileOf(boardId, cardId)),
        putSession: (session) => this.putSession(session),
        removeSession: (boardId, cardId) => fs.rm(this.sessionFileOf(boardId, cardId), { force: true }),
      }),
    );
  }

  private async put(claim: StoredClaim): Promise<void> {
    const { boardId, cardId, agent, since, until, ttlSeconds } = claim;
    await writeByRename(this.fileOf(boardId, cardId), { boardId, cardId, agent, since, until, ttlSeconds });
  }

  private async putSession(session: StoredSession): Promise<void> {
    const { boardId, cardId, agent, state, note, url, updatedAt, leaseSeconds } = session;
    await writeByRename(this.sessionFileOf(boardId, cardId), { boardId, cardId, agent, state, note, url, updatedAt, leaseSeconds });
  }
}

async function writeByRename(file: string, value: object): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  // A dot name: a listing never takes a half-written temp file for a claim.
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}`);
  await fs.writeFile(temp, `${JSON.stringify(value, null, 2)}\n`);
  try {
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/** The `<board>/<card>.json` files under `dir`, read by `read` (which answers null for a broken one). */
async function listIn<T>(dir: string, read: (file: string) => Promise<T | null>): Promise<T[]> {
  const boards = (await fs.readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory() && isValidSlugId(e.name));
  const lists = await Promise.all(
    boards.map(async (board) => {
      const folder = path.join(dir, board.name);
      const names = (await fs.readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json') && !name.startsWith('.'));
      return Promise.all(names.map((name) => read(path.join(folder, name))));
    }),
  );
  return lists.flat().filter((item): item is Awaited<T> => item !== null) as T[];
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

async function readSession(file: string): Promise<StoredSession | null> {
  const session = (await readJson(file)) as StoredSession | null | undefined;
  if (session === undefined) return null;
  if (session && typeof session.boardId === 'string' && typeof session.cardId === 'string' && typeof session.agent === 'string' && typeof session.state === 'string' && typeof session.updatedAt === 'string' && typeof session.leaseSeconds === 'number') {
    return { ...session, note: session.note ?? null, url: session.url ?? null };
  }
  log.warn(`kanban: ignored the session file ${file}: it is not an agent session`);
  return null;
}

async function readClaim(file: string): Promise<StoredClaim | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
  try {
    const claim = JSON.parse(text) as StoredClaim;
    if (typeof claim.boardId === 'string' && typeof claim.cardId === 'string' && typeof claim.agent === 'string' && typeof claim.until === 'string' && typeof claim.since === 'string') {
      return claim;
    }
  } catch {
    // reported below
  }
  // Only a hand edit breaks a file written by rename: it claims nothing, and the next claim replaces it.
  log.warn(`kanban: ignored the claim file ${file}: it is not a claim`);
  return null;
}
