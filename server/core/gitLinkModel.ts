import type { Static } from '@sinclair/typebox';
import type { GitBranchSchema, GitCommitSchema, GitLinksSchema } from './shapes/gitLinks';

/**
 * Links between a card and git, read only: branches whose name holds the card id, and commits whose
 * message names it in a `Kanban:` or `Refs:` trailer. The shapes are described once, in
 * shapes/gitLinks.ts (the types below follow from them); the functions here are the pure rules of
 * what links to what.
 */

export type GitCommitLink = Static<typeof GitCommitSchema>;
export type GitBranchLink = Static<typeof GitBranchSchema>;
export type GitLinks = Static<typeof GitLinksSchema>;

/** The message trailers that link a commit to cards. */
export const LINK_TRAILERS = ['Kanban', 'Refs'] as const;

const CARD_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Card ids a trailer value names: `a-2026-11-28, b-2026-11-28` (commas or spaces between them). */
export function cardIdsOfTrailer(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((word) => word.toLowerCase())
    .filter((word) => CARD_ID.test(word));
}

const ID_CHAR = /[a-z0-9]/;

/**
 * Whether a branch is named after the card: its short name holds the id as a whole (not glued to
 * other letters or digits), and that place is not part of a longer id of another card. So
 * `kanban/fix-login-2026-11-28-2` belongs to card `fix-login-2026-11-28-2`, not also to
 * `fix-login-2026-11-28`, while `kanban/fix-login-2026-11-28-wip` belongs to the latter.
 */
export function branchNamesCard(branch: string, cardId: string, isCardId: (id: string) => boolean): boolean {
  const name = branch.toLowerCase();
  for (let at = name.indexOf(cardId); at !== -1; at = name.indexOf(cardId, at + 1)) {
    const end = at + cardId.length;
    if ((at > 0 && ID_CHAR.test(name[at - 1])) || (end < name.length && ID_CHAR.test(name[end]))) continue;
    if (!insideLongerId(name, at, end, isCardId)) return true;
  }
  return false;
}

/** Whether whole `-` segments around `name[start, end)` make the id of another card. */
function insideLongerId(name: string, start: number, end: number, isCardId: (id: string) => boolean): boolean {
  const starts = [start];
  for (let i = start - 1; i > 0 && name[i] === '-' && ID_CHAR.test(name[i - 1]);) {
    let j = i - 1;
    while (j > 0 && ID_CHAR.test(name[j - 1])) j--;
    starts.push(j);
    i = j - 1;
  }
  const ends = [end];
  for (let i = end; i + 1 < name.length && name[i] === '-' && ID_CHAR.test(name[i + 1]);) {
    let j = i + 1;
    while (j < name.length && ID_CHAR.test(name[j])) j++;
    ends.push(j);
    i = j;
  }
  return starts.some((s) => ends.some((e) => (s !== start || e !== end) && isCardId(name.slice(s, e))));
}
