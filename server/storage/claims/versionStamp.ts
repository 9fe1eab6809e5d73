import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';

/**
 * A claims folder's change stamp: `<dir>/.version` holds a random token that every transaction which
 * changed a claim or a session replaces (under the lock, by a rename). A process that read the
 * folder under a token may trust what it read for as long as the file still holds that token, so
 * a pick reads one small file instead of every claim. Random, not a counter: a deleted stamp file
 * (or a folder made afresh) can never bring an old token back.
 */
export class VersionStamp {
  constructor(private readonly file: string) {}

  /** The current token, or null when there is none yet (nothing may be trusted then). */
  async read(): Promise<string | null> {
    try {
      return (await fs.readFile(this.file, 'utf8')).trim() || null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Replace the token (the caller holds the lock): answers the new one. */
  async bump(): Promise<string> {
    const token = randomBytes(12).toString('hex');
    const temp = path.join(path.dirname(this.file), `.version.${process.pid}-${token}`);
    await fs.writeFile(temp, `${token}\n`);
    try {
      await fs.rename(temp, this.file);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
    return token;
  }
}
