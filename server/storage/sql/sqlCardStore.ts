import { randomBytes } from 'node:crypto';
import type { ChangeWatch } from '../../core/shapes/workspaceStatus';
import type { Card, Comment } from '../../core/model';
import type { CardChange, CardStore, ExternalChange, InvalidFile, LoadResult } from '../cardStore';
import { ChangeFeed } from './changeFeed';
import {
  CARD_COLUMNS,
  CardRowError,
  cardToRow,
  changedColumns,
  commentFromRow,
  diffComments,
  duplicateCommentId,
  rowToCard,
  type CardRow,
  type CommentRow,
} from './cardRows';
import type { SqlDatabase, SqlTransaction } from './sqlDatabase';
import { RowMovedError, RowVersions, staleRow } from './rowVersions';
import { SqlClaimStore } from './sqlClaimStore';

const INSERT_CARD = `INSERT INTO kanban_cards (${CARD_COLUMNS.join(', ')}) VALUES (${CARD_COLUMNS.map(() => '?').join(', ')})`;
const SELECT_CARDS = `SELECT ${CARD_COLUMNS.join(', ')}, version FROM kanban_cards`;
type VersionedRow = CardRow & { version: number | string };
const SELECT_COMMENTS = 'SELECT card_id, id, seq_no, author, content, created, modified FROM kanban_comments';
// Appending takes the next number in the card's list inside the transaction, so comments that two
// processes add to one card both stay, in the order they were written.
const APPEND_COMMENT =
  'INSERT INTO kanban_comments (card_id, id, seq_no, author, content, created, modified) ' +
  'SELECT ?, ?, COALESCE(MAX(seq_no), 0) + 1, ?, ?, ?, ? FROM kanban_comments WHERE card_id = ?';

/** Old log rows are only needed by processes that poll; an hour covers any live one. */
const CHANGE_LOG_KEEP_MS = 60 * 60 * 1000;
const PRUNE_EVERY_WRITES = 500;

export interface SqlCardStoreOptions {
  provider: SqlDatabase['dialect'];
  /** How to name the store in messages: `sqlite .kanban/kanban.db`, `mysql kanban@127.0.0.1`. */
  label: string;
  pollIntervalMs: number;
  /** Safe details for /api/storage (file, host, database); never a password. */
  details: Record<string, unknown>;
}

/**
 * Cards and comments in two tables, one transaction per mutation, plus a change log that lets
 * every process sharing the database see the others' writes (`subscribe`). Updates write only the
 * columns and comments that changed, and only while the row is still at the version this process
 * last read (RowVersions): a write that lost the race is refused with 409 and the API applies it
 * again on top of the other (execute.ts), or answers 412 when it carried `If-Match`.
 */
export class SqlCardStore implements CardStore {
  readonly provider: SqlDatabase['dialect'];
  readonly label: string;
  /** Outside changes arrive by polling the change log, or pushed by a database that announces its commits. */
  readonly watch: ChangeWatch;
  readonly pollIntervalMs: number;
  /** This process among the writers of the database: its change-log rows and its instance id. */
  protected readonly origin = randomBytes(8).toString('hex');
  private readonly feed: ChangeFeed;
  private writes = 0;
  private readonly details: Record<string, unknown>;
  private readonly versions = new RowVersions();
  private claims: SqlClaimStore | null = null;

  constructor(
    readonly db: SqlDatabase,
    options: SqlCardStoreOptions,
  ) {
    this.provider = options.provider;
    this.label = options.label;
    this.pollIntervalMs = options.pollIntervalMs;
    this.details = options.details;
    this.watch = db.changes ? 'push' : 'poll';
    this.feed = new ChangeFeed(db, this.origin, (id) => this.readCard(id), options.pollIntervalMs, options.label);
  }

  async loadAll(): Promise<LoadResult> {
    await this.feed.markStart();
    const rows = await this.db.all<VersionedRow>(SELECT_CARDS);
    const comments = groupComments(
      await this.db.all<CommentRow>(`${SELECT_COMMENTS} ORDER BY card_id, seq_no, created, id`),
    );
    const cards: Card[] = [];
    const invalid: InvalidFile[] = [];
    for (const row of rows) {
      try {
        const card = rowToCard(row, comments.get(String(row.id)) ?? []);
        this.versions.remember(card, row.version);
        cards.push(card);
      } catch (error) {
        if (!(error instanceof CardRowError)) throw error;
        invalid.push({ path: `${this.label} kanban_cards id=${row.id}`, reason: error.message });
      }
    }
    return { cards, invalid };
  }

  /** The card as the database holds it now, or null when it is gone. */
  async readCard(id: string): Promise<Card | null> {
    const rows = await this.db.all<VersionedRow>(`${SELECT_CARDS} WHERE id = ?`, [id]);
    if (rows.length === 0) {
      this.versions.forget(id);
      return null;
    }
    const comments = await this.db.all<CommentRow>(
      `${SELECT_COMMENTS} WHERE card_id = ? ORDER BY seq_no, created, id`,
      [id],
    );
    // Read outside the transaction: a peer may commit between the two reads, which only makes the
    // next write here refused and the card read again.
    const card = rowToCard(rows[0], comments.map(commentFromRow));
    this.versions.remember(card, rows[0].version);
    return card;
  }

  async create(card: Card): Promise<boolean> {
    checkCommentIds(card);
    try {
      await this.db.transaction(async (tx) => {
        await insertCard(tx, card);
        await this.logChange(tx, card.id, card.boardId, 'upsert');
      });
      this.versions.remember(card, 1);
      this.feed.noteOwnWrite(card.id);
      return true;
    } catch (error) {
      if (this.db.isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async update(card: Card, previous: Card): Promise<void> {
    await this.updateMany([{ card, previous }]);
  }

  async updateMany(changes: CardChange[]): Promise<void> {
    for (const { card } of changes) checkCommentIds(card);
    const versions = await this.checked(() =>
      this.db.transaction(async (tx) => {
        const written: number[] = [];
        for (const { card, previous } of changes) written.push(await this.updateIn(tx, card, previous));
        return written;
      }),
    );
    changes.forEach(({ card }, i) => {
      this.versions.remember(card, versions[i]);
      this.feed.noteOwnWrite(card.id);
    });
  }

  /** Write one card's differences; answers the row's new version. */
  private async updateIn(tx: SqlTransaction, card: Card, previous: Card): Promise<number> {
    const exists = await tx.all('SELECT id FROM kanban_cards WHERE id = ?', [card.id]);
    let version = 1;
    if (exists.length === 0) {
      // Removed meanwhile by another process: this write brings it back rather than being lost.
      await tx.run('DELETE FROM kanban_comments WHERE card_id = ?', [card.id]);
      await insertCard(tx, card);
    } else {
      const expected = this.versions.expected(previous);
      if (expected === undefined) throw new RowMovedError(card.id, previous.boardId);
      await writeDifferences(tx, card, previous, expected);
      version = expected + 1;
    }
    await this.logChange(tx, card.id, card.boardId, 'upsert');
    return version;
  }

  async remove(card: Card): Promise<void> {
    await this.checked(() =>
      this.db.transaction(async (tx) => {
        const deleted = await tx.run('DELETE FROM kanban_cards WHERE id = ? AND version = ?', [
          card.id,
          this.versions.expected(card) ?? -1,
        ]);
        // Gone already is fine; still there at another version means another instance changed it.
        if (deleted === 0 && (await tx.all('SELECT id FROM kanban_cards WHERE id = ?', [card.id])).length > 0) {
          throw new RowMovedError(card.id, card.boardId);
        }
        await tx.run('DELETE FROM kanban_comments WHERE card_id = ?', [card.id]);
        await this.logChange(tx, card.id, card.boardId, 'remove');
      }),
    );
    this.versions.forget(card.id);
    this.feed.noteOwnWrite(card.id);
  }

  /** Turn a lost race (the transaction rolled back) into the service's 409, with the row as it is now. */
  private async checked<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof RowMovedError)) throw error;
      throw staleRow(this.label, error, await this.readCard(error.cardId));
    }
  }

  /**
   * Make the tables hold exactly `cards` (migration), in one transaction; answers what they held
   * before, so a later failure can put it back.
   */
  async replaceAll(cards: Card[], onCard: (done: number, total: number) => void = () => undefined): Promise<Card[]> {
    for (const card of cards) checkCommentIds(card);
    const { cards: before } = await this.loadAll();
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM kanban_comments');
      await tx.run('DELETE FROM kanban_cards');
      for (let i = 0; i < cards.length; i++) {
        await insertCard(tx, cards[i]);
        onCard(i + 1, cards.length);
      }
      const touched = new Map([...before, ...cards].map((c) => [c.id, c.boardId]));
      for (const [id, boardId] of touched) await this.logChange(tx, id, boardId, 'upsert');
    });
    this.versions.clear();
    for (const card of cards) this.versions.remember(card, 1);
    return before;
  }

  describe(): Record<string, unknown> {
    return { ...this.details, watch: this.watch, pollIntervalMs: this.pollIntervalMs };
  }

  subscribe(listener: (change: ExternalChange) => void): () => void {
    return this.feed.subscribe(listener);
  }

  /** Claims and agent sessions live beside the cards, for every process that uses this database. */
  claimStore(): SqlClaimStore {
    this.claims ??= new SqlClaimStore(this.db, this.label, this.pollIntervalMs);
    return this.claims;
  }

  /** One polling round now (tests and start-up use it instead of waiting for the timer). */
  pollNow(): Promise<void> {
    return this.feed.poll();
  }

  catchUp(): Promise<void> {
    return this.feed.catchUp();
  }

  private async logChange(tx: SqlTransaction, id: string, boardId: string, kind: 'upsert' | 'remove'): Promise<void> {
    const now = Date.now();
    await tx.run('INSERT INTO kanban_changes (card_id, board_id, kind, origin, changed_at) VALUES (?, ?, ?, ?, ?)', [
      id,
      boardId,
      kind,
      this.origin,
      new Date(now).toISOString(),
    ]);
    await this.db.announce?.(tx, 'cards');
    if (++this.writes % PRUNE_EVERY_WRITES === 1) {
      await tx.run('DELETE FROM kanban_changes WHERE changed_at < ?', [
        new Date(now - CHANGE_LOG_KEEP_MS).toISOString(),
      ]);
    }
  }

  async close(): Promise<void> {
    this.feed.stop();
    this.claims?.stop();
    await this.db.close();
  }
}

function checkCommentIds(card: Card): void {
  const duplicate = duplicateCommentId(card);
  if (duplicate)
    throw new CardRowError(
      `card "${card.id}" has two comments with the id "${duplicate}"; give one of them another id`,
    );
}

async function insertCard(tx: SqlTransaction, card: Card): Promise<void> {
  const row = cardToRow(card);
  await tx.run(
    INSERT_CARD,
    CARD_COLUMNS.map((c) => row[c]),
  );
  for (const comment of card.comments) await appendComment(tx, card.id, comment);
}

function appendComment(tx: SqlTransaction, cardId: string, c: Comment): Promise<number> {
  return tx.run(APPEND_COMMENT, [cardId, c.id, c.author, c.content, c.created, c.modified ?? null, cardId]);
}

/** The row moves to `expected + 1` even when only comments changed, so comment writes are ordered too. */
async function writeDifferences(tx: SqlTransaction, card: Card, previous: Card, expected: number): Promise<void> {
  const columns = changedColumns(card, previous);
  const assignments = [...columns.map((c) => `${c.column} = ?`), 'version = version + 1'].join(', ');
  const updated = await tx.run(`UPDATE kanban_cards SET ${assignments} WHERE id = ? AND version = ?`, [
    ...columns.map((c) => c.value),
    card.id,
    expected,
  ]);
  if (updated === 0) throw new RowMovedError(card.id, previous.boardId);
  const comments = diffComments(card.comments, previous.comments);
  for (const c of comments.removed)
    await tx.run('DELETE FROM kanban_comments WHERE card_id = ? AND id = ?', [card.id, c.id]);
  for (const c of comments.changed) {
    await tx.run(
      'UPDATE kanban_comments SET author = ?, content = ?, created = ?, modified = ? WHERE card_id = ? AND id = ?',
      [c.author, c.content, c.created, c.modified ?? null, card.id, c.id],
    );
  }
  for (const c of comments.added) await appendComment(tx, card.id, c);
}

function groupComments(rows: CommentRow[]): Map<string, Comment[]> {
  const byCard = new Map<string, Comment[]>();
  for (const row of rows) {
    const list = byCard.get(row.card_id) ?? [];
    list.push(commentFromRow(row));
    byCard.set(row.card_id, list);
  }
  return byCard;
}
