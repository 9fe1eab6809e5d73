import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { REPO } from './helpers';

/** Where a page lives: README.md at the repository's root, every other page under docs/. */
export function pagePath(page: string): string {
  return page === 'README.md' ? path.join(REPO, page) : path.join(REPO, 'docs', page);
}

/** The fenced code blocks of one language in a page (README.md or one under docs/), in order, with a list item's two-space indent removed. */
export async function docBlocks(page: string, language: string): Promise<string[]> {
  const text = await fs.readFile(pagePath(page), 'utf8');
  return [...text.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) =>
    m[1].replace(/^ {2}/gm, ''),
  );
}

/** A command line as the shell splits it: quoted words kept whole, a trailing # comment dropped. */
export function shellWords(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    if (m[3]?.startsWith('#')) break;
    out.push(m[1] ?? m[2] ?? m[3]);
  }
  return out;
}
