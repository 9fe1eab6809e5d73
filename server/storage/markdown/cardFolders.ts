import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isOrphanTempFile, isTempFile } from '../../core/atomicFile';

/** Folders under a board that hold something other than cards. */
export const RESERVED_BOARD_FOLDERS = new Set(['attachments', 'logs']);

/** What identifies a card file's content: a write goes ahead only while the file still hashes the same. */
export function fingerprint(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

export async function readDirs(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
}

/**
 * Every `<board>/<status>/<id>.md` under the boards folder. Temp files a crashed process left
 * behind are removed on the way (nobody will finish them); live writers' temp files are kept.
 */
export async function listCardFiles(boardsDir: string): Promise<string[]> {
  const files: string[] = [];
  for (const board of await readDirs(boardsDir)) {
    for (const status of await readDirs(path.join(boardsDir, board))) {
      if (RESERVED_BOARD_FOLDERS.has(status)) continue;
      const dir = path.join(boardsDir, board, status);
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        if (isTempFile(entry.name)) {
          if (isOrphanTempFile(entry.name)) await fs.rm(path.join(dir, entry.name), { force: true });
        } else if (entry.name.endsWith('.md')) {
          // Joined as strings (a file name has no separator): path.join per file was a twentieth of a 100,000-card restart.
          files.push(`${dir}${path.sep}${entry.name}`);
        }
      }
    }
  }
  return files;
}

/**
 * The file of a card id in any board or status folder of `boardsDir`. The folders are checked all
 * at once: this runs inside the mutation queue, so its latency delays every write.
 */
export async function findCardFileIn(boardsDir: string, id: string): Promise<string | null> {
  const perBoard = await Promise.all(
    (await readDirs(boardsDir)).map(async (board) => {
      const statuses = (await readDirs(path.join(boardsDir, board))).filter(
        (status) => !RESERVED_BOARD_FOLDERS.has(status),
      );
      const files = statuses.map((status) => path.join(boardsDir, board, status, `${id}.md`));
      const found = await Promise.all(
        files.map((file) =>
          fs.access(file).then(
            () => true,
            () => false,
          ),
        ),
      );
      return files.find((_, i) => found[i]) ?? null;
    }),
  );
  return perBoard.find((file) => file !== null) ?? null;
}
