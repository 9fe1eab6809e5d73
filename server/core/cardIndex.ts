import type { Card } from './model';
import { placeOf } from './cardPlace';
import { FuzzyBoardIndex } from './fuzzyIndex';
import { LinkIndex, type LinkField } from './linkIndex';

export function compareCards(a: Card, b: Card): number {
  // Cards without a valid key (hand-written files) sort after keyed ones, oldest first.
  if (a.order !== b.order) {
    if (a.order === '') return 1;
    if (b.order === '') return -1;
    return a.order < b.order ? -1 : 1;
  }
  if (a.created !== b.created) return a.created < b.created ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** First index in a sorted column whose card does not sort before `card`. */
function lowerBound(sorted: Card[], card: Card): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareCards(sorted[mid], card) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The in-memory index every read is served from. Cards are immutable objects: a change replaces the
 * object, which lets per-card caches (search text, views) key on identity. Sorted columns and fuzzy
 * indexes are built on first use and then kept up to date card by card, so a write costs a binary
 * search and a splice, never a re-sort or a rebuild of the board.
 */
export class CardIndex {
  private boards = new Map<string, Map<string, Card>>();
  private boardOfId = new Map<string, string>();
  private sortedColumns = new Map<string, Card[]>();
  /**
   * Columns gathered in one pass over their board but not sorted yet: each is sorted when it is
   * first asked for, so a first page after a start sorts the columns it shows, not all of them.
   * Kept exact: a card put is added to its column's group, a card removed drops its group.
   */
  private groupedColumns = new Map<string, Card[]>();
  /** Cards per status per board, so the statuses of a board are known without a scan. */
  private statusCounts = new Map<string, Map<string, number>>();
  private fuzzy = new Map<string, FuzzyBoardIndex>();
  private links = new LinkIndex();
  private changes = 0;

  /** Grows with every change; read caches compare it to know they are still current. */
  get version(): number {
    return this.changes;
  }

  clear(): void {
    this.boards.clear();
    this.boardOfId.clear();
    this.sortedColumns.clear();
    this.groupedColumns.clear();
    this.statusCounts.clear();
    this.fuzzy.clear();
    this.links.clear();
    this.changes++;
  }

  /**
   * Fill an empty index (a load): what `put` does, less what an empty index cannot have (an earlier
   * card of the id, a sorted column or a search index to update). An id met twice is put as `put`
   * would (the later card replaces the earlier).
   */
  fill(cards: readonly Card[]): void {
    if (this.boardOfId.size > 0) throw new Error('CardIndex.fill needs an empty index');
    let boardId: string | undefined;
    let board: Map<string, Card> | undefined;
    for (const card of cards) {
      if (this.boardOfId.has(card.id)) {
        this.put(card);
        continue;
      }
      // Cards come board by board from a load: one lookup per run of a board, not per card.
      if (card.boardId !== boardId) {
        boardId = card.boardId;
        board = this.boards.get(boardId);
        if (!board) this.boards.set(boardId, (board = new Map()));
      }
      board!.set(card.id, card);
      this.boardOfId.set(card.id, boardId);
      this.countStatus(card, 1);
      this.links.add(card);
    }
    this.changes++;
  }

  /** How many cards the index holds, all boards. */
  get size(): number {
    return this.boardOfId.size;
  }

  put(card: Card): void {
    const previous = this.findById(card.id);
    if (previous) this.remove(previous);
    let board = this.boards.get(card.boardId);
    if (!board) this.boards.set(card.boardId, (board = new Map()));
    board.set(card.id, card);
    this.boardOfId.set(card.id, card.boardId);
    this.countStatus(card, 1);
    const key = columnKey(card.boardId, placeOf(card));
    const sorted = this.sortedColumns.get(key);
    if (sorted) sorted.splice(lowerBound(sorted, card), 0, card);
    else this.groupedColumns.get(key)?.push(card);
    this.fuzzy.get(card.boardId)?.put(card);
    this.links.add(card);
    this.changes++;
  }

  remove(card: Card): void {
    const boardId = this.boardOfId.get(card.id);
    if (boardId === undefined) return;
    const stored = this.boards.get(boardId)?.get(card.id);
    this.boards.get(boardId)?.delete(card.id);
    this.boardOfId.delete(card.id);
    this.changes++;
    if (!stored) return;
    this.links.remove(stored);
    this.countStatus(stored, -1);
    const key = columnKey(boardId, placeOf(stored));
    const sorted = this.sortedColumns.get(key);
    if (sorted) {
      const at = lowerBound(sorted, stored);
      if (sorted[at] === stored) sorted.splice(at, 1);
      else this.sortedColumns.delete(key);
    }
    this.groupedColumns.delete(key);
    this.fuzzy.get(boardId)?.remove(stored);
  }

  private countStatus(card: Card, delta: number): void {
    let counts = this.statusCounts.get(card.boardId);
    if (!counts) this.statusCounts.set(card.boardId, (counts = new Map()));
    const place = placeOf(card);
    const next = (counts.get(place) ?? 0) + delta;
    if (next > 0) counts.set(place, next);
    else counts.delete(place);
  }

  /** Ids of the cards (any board) whose `blockedBy` names `id`: O(1) plus the answer. */
  blocksOf(id: string): readonly string[] {
    return this.links.namesOf('blockedBy', id);
  }

  /** Ids of the cards (any board) whose link `field` names `id`: O(1) plus the answer. */
  linkedFrom(field: LinkField, id: string): readonly string[] {
    return this.links.namesOf(field, id);
  }

  hasId(id: string): boolean {
    return this.boardOfId.has(id);
  }

  findById(id: string): Card | undefined {
    const boardId = this.boardOfId.get(id);
    return boardId === undefined ? undefined : this.boards.get(boardId)?.get(id);
  }

  get(boardId: string, id: string): Card | undefined {
    return this.boards.get(boardId)?.get(id);
  }

  cardsOf(boardId: string): Iterable<Card> {
    return this.boards.get(boardId)?.values() ?? [];
  }

  countOf(boardId: string): number {
    return this.boards.get(boardId)?.size ?? 0;
  }

  allCards(): Card[] {
    return [...this.boards.values()].flatMap((board) => [...board.values()]);
  }

  /** How many cards one column (a status, or `archived`) holds: kept counts, no column sorted for it. */
  countIn(boardId: string, place: string): number {
    return this.statusCounts.get(boardId)?.get(place) ?? 0;
  }

  /** Statuses that hold at least one card on the board (`archived` for the archive). */
  statusesOf(boardId: string): Set<string> {
    return new Set(this.statusCounts.get(boardId)?.keys() ?? []);
  }

  /**
   * Cards of one column in display order, archived cards left out (they sit under `archived`,
   * which lists the archive). Callers must not change the array.
   */
  column(boardId: string, status: string): readonly Card[] {
    const key = columnKey(boardId, status);
    let sorted = this.sortedColumns.get(key);
    if (sorted) return sorted;
    if (!this.groupedColumns.has(key)) this.groupColumns(boardId);
    sorted = (this.groupedColumns.get(key) ?? []).sort(compareCards);
    this.groupedColumns.delete(key);
    this.sortedColumns.set(key, sorted);
    return sorted;
  }

  /**
   * Every column of a board neither sorted nor gathered yet, from one pass over its cards: a page
   * and a count ask for each column in turn, and a pass per column went over all 100,000 cards of
   * a large board for each of its columns at the first page after a start.
   */
  private groupColumns(boardId: string): void {
    // null: that column is sorted or gathered already (and kept current), so its cards are skipped.
    const columns = new Map<string, Card[] | null>();
    for (const card of this.cardsOf(boardId)) {
      const place = placeOf(card);
      let cards = columns.get(place);
      if (cards === undefined) {
        const key = columnKey(boardId, place);
        cards = this.sortedColumns.has(key) || this.groupedColumns.has(key) ? null : [];
        columns.set(place, cards);
      }
      cards?.push(card);
    }
    for (const [place, cards] of columns) if (cards) this.groupedColumns.set(columnKey(boardId, place), cards);
  }

  /** Zero-based place of the card in its column, or -1 when this object is not the indexed one. */
  positionOf(card: Card): number {
    const sorted = this.column(card.boardId, placeOf(card));
    const at = lowerBound(sorted as Card[], card);
    return sorted[at] === card ? at : -1;
  }

  fuzzyIndex(boardId: string): FuzzyBoardIndex {
    let index = this.fuzzy.get(boardId);
    if (!index) {
      index = new FuzzyBoardIndex(this.cardsOf(boardId));
      this.fuzzy.set(boardId, index);
    }
    return index;
  }
}

function columnKey(boardId: string, status: string): string {
  return `${boardId}\u0000${status}`;
}
