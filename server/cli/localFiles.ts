import { promises as fs } from 'node:fs';
import { writeFileAtomic } from '../core/atomicFile';

/** Files of the repository that kanban keeps beside the board (skill files, AGENTS.md), not board data. */

export async function readTextOrNull(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Write `next` atomically unless the file already holds it: an unchanged file keeps its time stamp,
 * so git, editors and watchers see nothing. Answers whether it wrote.
 */
export async function writeIfChanged(file: string, next: string, current: string | null): Promise<boolean> {
  if (next === current) return false;
  await writeFileAtomic(file, next);
  return true;
}
