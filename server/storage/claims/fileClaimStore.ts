import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { claimKey, type StoredClaim } from '../../core/claims';
import type { StoredSession } from '../../core/sessions';
import { isValidSlugId } from '../../core/ids';
import { log } from '../../core/log';
import type { ClaimStore, ClaimTransaction } from './claimStore';
import { withFileLock } from './fileLock';
import { VersionStamp } from './versionStamp';

/** Sessions' folder in the claims folder: a dot name is never a board id, nor a sub-folder workspace's `@...`. */
const SESSIONS = '.sessions';

/**
 * Claims as files: `<dir>/<board id>/<card id>.json`, one per claimed card, agent sessions as
 * `<dir>/.sessions/<board id>/<card id>.json`, and `<dir>/.lock` while a process changes either. Nothing here is tracked by git (the folder is in the git common directory
 * or under `.kanban/.state/`). A claim file is replaced by a rename, so a reader sees the old or the
 * new claim, never a mix; no fsync, as a claim lost to a power cut only frees its card early.
 *
 * What was read under the lock is kept with the folder's version stamp (versionStamp.ts): while the
 * stamp is unchanged, a list is answered from memory. Every write goes through `exclusive`, which
 * replaces the stamp, so another process's claim is never missed.
 */
export class FileClaimStore implements ClaimStore {
  readonly kind = 'files';
  private readonly stamp: VersionStamp;
  /** The claims and sessions as of `token` (read or written under the lock), or null. */
  private known: { token: string; claims: Map<string, StoredClaim>; sessions: Map<string, StoredSession> } | null =
    null;

  constructor(
    readonly dir: string,
    /** Made before the first write when the folder is new (`.kanban/.state/` ignores itself). */
    private readonly prepare: () => Promise<void> = async () => undefined,
  ) {
    this.stamp = new VersionStamp(path.join(dir, '.version'));
  }

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

  /** Outside the lock, memory answers only while the stamp says nothing changed; a fresh read is never kept (a writer may be half-way). */
  async list(): Promise<StoredClaim[]> {
    const known = this.known;
    if (known && (await this.stamp.read()) === known.token) return [...known.claims.values()];
    return listIn(this.dir, readClaim);
  }

  async listSessions(): Promise<StoredSession[]> {
    const known = this.known;
    if (known && (await this.stamp.read()) === known.token) return [...known.sessions.values()];
    return listIn(path.join(this.dir, SESSIONS), readSession);
  }

  async exclusive<T>(work: (claims: ClaimTransaction) => Promise<T>): Promise<T> {
    await this.prepare();
    await fs.mkdir(this.dir, { recursive: true });
    return withFileLock(path.join(this.dir, '.lock'), async () => {
      const known = await this.knownUnderLock();
      let changed = false;
      let failed = false;
      const change = async (apply: () => Promise<unknown>, remember: () => unknown) => {
        // Forgotten first: should a write fail, the next transaction reads the folder again.
        this.known = null;
        changed = true;
        try {
          await apply();
        } catch (error) {
          failed = true;
          throw error;
        }
        remember();
      };
      try {
        return await work({
          list: async () => [...known.claims.values()],
          get: async (boardId, cardId) => known.claims.get(claimKey(boardId, cardId)) ?? null,
          put: (claim) =>
            change(
              () => this.put(claim),
              () => known.claims.set(claimKey(claim.boardId, claim.cardId), claim),
            ),
          remove: (boardId, cardId) =>
            change(
              () => fs.rm(this.fileOf(boardId, cardId), { force: true }),
              () => known.claims.delete(claimKey(boardId, cardId)),
            ),
          getSession: async (boardId, cardId) => known.sessions.get(claimKey(boardId, cardId)) ?? null,
          putSession: (session) =>
            change(
              () => this.putSession(session),
              () => known.sessions.set(claimKey(session.boardId, session.cardId), session),
            ),
          removeSession: (boardId, cardId) =>
            change(
              () => fs.rm(this.sessionFileOf(boardId, cardId), { force: true }),
              () => known.sessions.delete(claimKey(boardId, cardId)),
            ),
        });
      } finally {
        if (changed) {
          const token = await this.stamp.bump();
          this.known = failed ? null : { ...known, token };
        }
      }
    });
  }

  /** The folder's claims and sessions, from memory when the stamp is the one they were read under. */
  private async knownUnderLock(): Promise<{
    token: string;
    claims: Map<string, StoredClaim>;
    sessions: Map<string, StoredSession>;
  }> {
    const token = await this.stamp.read();
    if (this.known && token !== null && token === this.known.token) return this.known;
    const [claims, sessions] = await Promise.all([
      listIn(this.dir, readClaim),
      listIn(path.join(this.dir, SESSIONS), readSession),
    ]);
    const known = {
      token: token ?? (await this.stamp.bump()),
      claims: new Map(claims.map((claim) => [claimKey(claim.boardId, claim.cardId), claim])),
      sessions: new Map(sessions.map((session) => [claimKey(session.boardId, session.cardId), session])),
    };
    this.known = known;
    return known;
  }

  private async put(claim: StoredClaim): Promise<void> {
    const { boardId, cardId, agent, since, until, ttlSeconds } = claim;
    await writeByRename(this.fileOf(boardId, cardId), { boardId, cardId, agent, since, until, ttlSeconds });
  }

  private async putSession(session: StoredSession): Promise<void> {
    const { boardId, cardId, agent, state, note, url, updatedAt, leaseSeconds } = session;
    await writeByRename(this.sessionFileOf(boardId, cardId), {
      boardId,
      cardId,
      agent,
      state,
      note,
      url,
      updatedAt,
      leaseSeconds,
    });
  }
}

async function writeByRename(file: string, value: object): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  // A dot name: a listing never takes a half-written temp file for a claim.
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}`,
  );
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
  const boards = (await fs.readdir(dir, { withFileTypes: true }).catch(() => [])).filter(
    (e) => e.isDirectory() && isValidSlugId(e.name),
  );
  const lists = await Promise.all(
    boards.map(async (board) => {
      const folder = path.join(dir, board.name);
      const names = (await fs.readdir(folder).catch(() => [] as string[])).filter(
        (name) => name.endsWith('.json') && !name.startsWith('.'),
      );
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
  if (
    session &&
    typeof session.boardId === 'string' &&
    typeof session.cardId === 'string' &&
    typeof session.agent === 'string' &&
    typeof session.state === 'string' &&
    typeof session.updatedAt === 'string' &&
    typeof session.leaseSeconds === 'number'
  ) {
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
    if (
      typeof claim.boardId === 'string' &&
      typeof claim.cardId === 'string' &&
      typeof claim.agent === 'string' &&
      typeof claim.until === 'string' &&
      typeof claim.since === 'string'
    ) {
      return claim;
    }
  } catch {
    // reported below
  }
  // Only a hand edit breaks a file written by rename: it claims nothing, and the next claim replaces it.
  log.warn(`kanban: ignored the claim file ${file}: it is not a claim`);
  return null;
}
