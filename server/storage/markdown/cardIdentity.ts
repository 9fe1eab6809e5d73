import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { Card } from '../../core/model';
import { placeOf } from '../../core/cardPlace';
import { isSafeCardId } from '../../core/ids';
import type { DuplicateIdCard, StaleCopy } from '../cardStore';

export interface ParsedFile {
  file: string;
  card: Card;
  hash: string;
}

export interface CardIdentities {
  /** One file per card id, each card under the id it is served as. */
  served: ParsedFile[];
  /** Second files of one card that a crash between a move's write and its removal left behind. */
  stale: StaleCopy[];
  /** Cards whose id another card holds (a merge, a copy), served under a new id meanwhile. */
  duplicates: DuplicateIdCard[];
}

/** What identifying needs to know about a file beyond its parsed card. */
export interface FilePlaces {
  /** The status folder the file is in. */
  folderOf(file: string): string | undefined;
  /** The workspace-relative `/` path: what the derived ids are made from, so every process agrees. */
  relative(file: string): string;
}

const fileNameOf = (file: string) => path.basename(file, '.md');

/**
 * Two files that claim one id are one card only when that is provable: both are named after the id
 * (the service writes cards nowhere else) and both carry the same `created` stamp, which the service
 * writes once, to the millisecond, when the card is made and never changes. That is what a crash in
 * the middle of a move leaves (the new file written, the old one not yet removed). Two cards created
 * on two branches, or a card copied to another name, are different cards.
 */
export function provablySameCard(a: ParsedFile, b: ParsedFile): boolean {
  return (
    a.card.id === b.card.id &&
    fileNameOf(a.file) === a.card.id &&
    fileNameOf(b.file) === b.card.id &&
    a.card.created === b.card.created
  );
}

/**
 * Of two files of one card, the one to serve: the newer by `modified`; at a tie, the one whose folder
 * agrees with its status, then the larger hash, so the choice never depends on the order folders
 * were read in.
 */
export function preferredCopy(a: ParsedFile, b: ParsedFile, places: FilePlaces): ParsedFile {
  if (a.card.modified !== b.card.modified) return a.card.modified > b.card.modified ? a : b;
  const settled = (p: ParsedFile) => places.folderOf(p.file) === placeOf(p.card);
  if (settled(a) !== settled(b)) return settled(a) ? a : b;
  return a.hash >= b.hash ? a : b;
}

/**
 * Which card each file is. Files that claim the same id are ordered so every process decides alike
 * (named after the id first, then the earlier `created`, then the path); the first keeps the id,
 * copies of it that provably are it become stale copies, and every other file is a card of its own
 * under a new id (see `derivedId`). Nothing is written: the files stay as they are.
 */
export function identifyCards(parsed: ParsedFile[], places: FilePlaces): CardIdentities {
  // The usual board: every id once. A set of the ids tells so without a group per card (a list
  // each, 100,000 of them at start-up, all for the collector).
  const ids = new Set<string>();
  for (const entry of parsed) ids.add(entry.card.id);
  if (ids.size === parsed.length) return { served: parsed, stale: [], duplicates: [] };
  const byId = new Map<string, ParsedFile[]>();
  for (const entry of parsed) {
    const group = byId.get(entry.card.id);
    if (group) group.push(entry);
    else byId.set(entry.card.id, [entry]);
  }
  const served: ParsedFile[] = [];
  const stale: StaleCopy[] = [];
  const duplicates: DuplicateIdCard[] = [];
  const taken = new Set(byId.keys());
  for (const [id, group] of byId) {
    if (group.length === 1) {
      served.push(group[0]);
      continue;
    }
    group.sort((a, b) => claimOrder(a, b, places));
    const first = group[0];
    let keeper = first;
    const staleOfKeeper: ParsedFile[] = [];
    for (const other of group.slice(1)) {
      if (provablySameCard(first, other)) {
        const winner = preferredCopy(keeper, other, places);
        staleOfKeeper.push(winner === keeper ? other : keeper);
        keeper = winner;
        continue;
      }
      const servedAs = derivedId(id, other.file, places, taken);
      taken.add(servedAs);
      served.push({ ...other, card: { ...other.card, id: servedAs } });
      duplicates.push({ path: places.relative(other.file), id, servedAs, sharedWith: places.relative(first.file) });
    }
    served.push(keeper);
    for (const copy of staleOfKeeper)
      stale.push({ path: places.relative(copy.file), id, servedFrom: places.relative(keeper.file) });
  }
  return { served, stale, duplicates };
}

function claimOrder(a: ParsedFile, b: ParsedFile, places: FilePlaces): number {
  const named = (p: ParsedFile) => (fileNameOf(p.file) === p.card.id ? 0 : 1);
  if (named(a) !== named(b)) return named(a) - named(b);
  if (a.card.created !== b.card.created) return a.card.created < b.card.created ? -1 : 1;
  const [ra, rb] = [places.relative(a.file), places.relative(b.file)];
  return ra < rb ? -1 : ra > rb ? 1 : 0;
}

/**
 * The id a card gets when another card holds the one in its file: its file name when that is a free
 * id of its own (a copy saved under a new name), else the claimed id with a suffix hashed from the
 * file's path. It depends on nothing but the files, so every read, process and instance serves the
 * card under the same id until its file is renamed to it (its next write, or `kanban doctor --fix`).
 */
export function derivedId(
  claimed: string,
  file: string,
  places: FilePlaces,
  taken: { has(id: string): boolean },
): string {
  const name = fileNameOf(file);
  if (name !== claimed && isSafeCardId(name) && !taken.has(name)) return name;
  const digest = BigInt(`0x${createHash('sha256').update(places.relative(file)).digest('hex')}`).toString(36);
  for (let length = 4; length <= digest.length; length++) {
    const candidate = `${claimed.slice(0, 80 - length)}-${digest.slice(0, length)}`;
    if (!taken.has(candidate)) return candidate;
  }
  throw new Error(`no free id for ${places.relative(file)}`);
}
