import type Fuse from 'fuse.js';
import type { Card } from './model';
import { buildFuzzyIndex, type FuzzyDoc } from './search';

function compareCards(a: Card, b: Card): number {
  // Cards without a valid key (hand-written files) sort after keyed ones, oldest first.
  if (a.order !== b.order) {
    if (a.order === '') return 1;
    if (b.order === '') return -1;
    return a.order < b.order ? -1 : 1;
  }
  if (a.created !== b.created) return a.created < b.created ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The in-memory index every read is served from. Cards are immutable objects: a change replaces the
 * object, which lets per-card caches (search text) key on identity. Sorted columns and fuzzy
 * indexes are derived lazily and dropped when their board changes.
 */
export class CardIndex {
  private boards = new Map<string, Map<string, Card>>();
  private boardOfId = new Map<string, string>();
  private sortedColumns = new Map<string, Card[]>();
  private fuzzy = new Map<string, Fuse<FuzzyDoc>>();

  clear(): void {
    this.boards.clear();
    this.boardOfId.clear();
    this.sortedColumns.clear();
    this.fuzzy.clear();
  }

  put(card: Card): void {
    const previous = this.findById(card.id);
    if (previous) this.remove(previous);
    let board = this.boards.get(card.boardId);
    if (!board) this.boards.set(card.boardId, (board = new Map()));
    board.set(card.id, card);
    this.boardOfId.set(card.id, card.boardId);
    this.invalidate(card.boardId, card.status);
  }

  remove(card: Card): void {
    const boardId = this.boardOfId.get(card.id);
    if (boardId === undefined) return;
    const stored = this.boards.get(boardId)?.get(card.id);
    this.boards.get(boardId)?.delete(card.id);
    this.boardOfId.delete(card.id);
    if (stored) this.invalidate(boardId, stored.status);
  }

  private invalidate(boardId: string, status: string): void {
    this.sortedColumns.delete(`${boardId}\u0000${status}`);
    this.fuzzy.delete(boardId);
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

  /** Statuses that hold at least one card on the board. */
  statusesOf(boardId: string): Set<string> {
    const statuses = new Set<string>();
    for (const card of this.cardsOf(boardId)) statuses.add(card.status);
    return statuses;
  }

  /** Cards of one column in display order. */
  column(boardId: string, status: string): Card[] {
    const key = `${boardId}\u0000${status}`;
    let sorted = this.sortedColumns.get(key);
    if (!sorted) {
      sorted = [...this.cardsOf(boardId)].filter((c) => c.status === status).sort(compareCards);
      this.sortedColumns.set(key, sorted);
    }
    return sorted;
  }

  positionOf(card: Card): number {
    return this.column(card.boardId, card.status).indexOf(card);
  }

  fuzzyIndex(boardId: string): Fuse<FuzzyDoc> {
    let index = this.fuzzy.get(boardId);
    if (!index) {
      index = buildFuzzyIndex([...this.cardsOf(boardId)]);
      this.fuzzy.set(boardId, index);
    }
    return index;
  }
}
