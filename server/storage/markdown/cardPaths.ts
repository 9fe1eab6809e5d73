import * as path from 'node:path';
import type { Card } from '../../core/model';
import { placeOf } from '../../core/cardPlace';
import { RESERVED_BOARD_FOLDERS } from './cardFolders';

type CardPlace = Pick<Card, 'id' | 'boardId' | 'status' | 'archivedAt'>;

/**
 * Card file paths of one workspace, made and taken apart by joining and slicing strings where the
 * path is plain: at 100,000 cards, path.relative and path.join per card cost over a second of a
 * start-up and of the first list (board ids, places and card ids are single path segments).
 */
export class CardPaths {
  /** The root and the boards folder with a trailing separator, and the boards folder relative to the root. */
  private readonly rootPrefix: string;
  private readonly boardsPrefix: string;
  private readonly boardsRelative: string;

  constructor(
    private readonly root: string,
    private readonly kanbanDir: string,
  ) {
    this.rootPrefix = path.resolve(root) + path.sep;
    this.boardsPrefix = path.resolve(kanbanDir, 'boards') + path.sep;
    this.boardsRelative = this.slowRelative(path.join(kanbanDir, 'boards'));
  }

  /** `.kanban/boards/<board>/<place>/<id>.md`: the relative form of `absolutePath`. */
  canonicalRelative(card: CardPlace): string {
    return `${this.boardsRelative}/${card.boardId}/${placeOf(card)}/${card.id}.md`;
  }

  /** A path under the root as the root-relative, `/`-separated form; others through path.relative. */
  relative(file: string): string {
    const rest = plainlyUnder(this.rootPrefix, file);
    if (rest === null) return this.slowRelative(file);
    return path.sep === '/' ? rest : rest.split(path.sep).join('/');
  }

  private slowRelative(file: string): string {
    return path.relative(this.root, file).split(path.sep).join('/');
  }

  /** `<board>/<status>/<id>.md`, or `<board>/archived/<id>.md` for an archived card (it keeps its status). */
  absolutePath(card: CardPlace): string {
    return path.join(this.kanbanDir, 'boards', card.boardId, placeOf(card), `${card.id}.md`);
  }

  /** Board, status folder and id from a card file's absolute path, or null when it is not a card path. */
  locate(file: string): { id: string; boardId: string; status: string } | null {
    const parts = (
      plainlyUnder(this.boardsPrefix, file) ?? path.relative(path.join(this.kanbanDir, 'boards'), file)
    ).split(path.sep);
    if (parts.length !== 3 || !parts[2].endsWith('.md') || parts[0].startsWith('..')) return null;
    if (RESERVED_BOARD_FOLDERS.has(parts[1])) return null;
    return { boardId: parts[0], status: parts[1], id: parts[2].slice(0, -3) };
  }

  /**
   * Whether `file` is `<boards>/<board>/<place>/<id>.md` of the card. Compared piece by piece in
   * place: a path joined per card only to compare it cost a 100,000-card load a noticeable share.
   */
  isCanonicalFile(file: string, card: Card): boolean {
    const place = placeOf(card);
    const sep = path.sep;
    let at = this.boardsPrefix.length;
    if (file.length !== at + card.boardId.length + place.length + card.id.length + 5) return false;
    if (!file.startsWith(this.boardsPrefix) || !file.startsWith(card.boardId, at)) return false;
    at += card.boardId.length;
    if (file[at] !== sep || !file.startsWith(place, at + 1)) return false;
    at += 1 + place.length;
    return file[at] === sep && file.startsWith(card.id, at + 1) && file.endsWith('.md');
  }
}

/**
 * `file` after `prefix` (a resolved folder with its trailing separator) when it is a plain path
 * beneath it, null when path.relative must decide (another folder, `..`, `.` or doubled separators).
 */
function plainlyUnder(prefix: string, file: string): string | null {
  if (!file.startsWith(prefix)) return null;
  const unusual =
    file.includes(`${path.sep}..`) || file.includes(`${path.sep}.${path.sep}`) || file.includes(path.sep + path.sep);
  return unusual ? null : file.slice(prefix.length);
}
