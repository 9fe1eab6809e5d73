import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { StoredClaim } from '../../core/claims';
import { isValidSlugId } from '../../core/ids';
import { log } from '../../core/log';
import type { ClaimStore, ClaimTransaction } from './claimStore';
import { withFileLock } from './fileLock';

/**
 * Claims as files: `<dir>/<board id>/<card id>.json`, one per claimed card, and `<dir>/.lock` while
 * a process changes them. Nothing here is tracked by git (the folder is in the git common directory
 * or under `.kanban/.state/`). A claim file is replaced by a rename, so a reader sees the old or the
 * new claim, never a mix; no fsync, as a claim lost to a power cut only frees its card early.
 */
export class FileClaimStore implements ClaimStore {
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

  private fileOf(boardId: string, cardId: string): string {
    // Card ids of hand-written files may hold any character: the name is encoded, the id is in the file.
    return path.join(this.dir, boardId, `${encodeURIComponent(cardId)}.json`);
  }

  async get(boardId: string, cardId: string): Promise<StoredClaim | null> {
    return readClaim(this.fileOf(boardId, cardId));
  }

  async list(): Promise<StoredClaim[]> {
    const boards = (await fs.readdir(this.dir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory() && isValidSlugId(e.name));
    const lists = await Promise.all(
      boards.map(async (board) => {
        const folder = path.join(this.dir, board.name);
        const names = (await fs.readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json') && !name.startsWith('.'));
        return Promise.all(names.map((name) => readClaim(path.join(folder, name))));
      }),
    );
    return lists.flat().filter((claim): claim is StoredClaim => claim !== null);
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
      }),
    );
  }

  private async put(claim: StoredClaim): Promise<void> {
    const file = this.fileOf(claim.boardId, claim.cardId);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // A dot name: a listing never takes a half-written temp file for a claim.
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}`);
    const { boardId, cardId, agent, since, until } = claim;
    await fs.writeFile(temp, `${JSON.stringify({ boardId, cardId, agent, since, until }, null, 2)}\n`);
    try {
      await fs.rename(temp, file);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }
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
