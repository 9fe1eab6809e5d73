import type { CardStateRecord, CardStateStore } from '../cardStateStore';
import { SqliteFileStore, openSqliteWithSchema } from './sqliteFileStore';
import type { SqliteLocation } from './sqliteCardStore';

interface StateRow {
  board_id: string;
  card_id: string;
  actor: string;
  opened_at: string | null;
  read_through: string | null;
  last_activity_at: string | null;
}

/**
 * `card.state: sqlite`: one row per card and actor, independent of where the cards themselves
 * live. Card ids are unique in the workspace, so the row is keyed by card id and follows a card
 * that moves to another board.
 */
export class SqliteCardStateStore extends SqliteFileStore implements CardStateStore {
  static async open(location: SqliteLocation): Promise<SqliteCardStateStore> {
    return new SqliteCardStateStore(await openSqliteWithSchema(location, 'cardState'), location);
  }

  async loadAll(): Promise<CardStateRecord[]> {
    const rows = this.db
      .prepare('SELECT board_id, card_id, actor, opened_at, read_through, last_activity_at FROM kanban_card_state')
      .all() as StateRow[];
    return rows.map((row) => {
      const record: CardStateRecord = { boardId: row.board_id, cardId: row.card_id, actor: row.actor };
      if (row.opened_at) record.openedAt = row.opened_at;
      if (row.read_through) record.readThrough = row.read_through;
      if (row.last_activity_at) record.lastActivityAt = row.last_activity_at;
      return record;
    });
  }

  async save(record: CardStateRecord): Promise<void> {
    this.db
      .prepare(
        'INSERT OR REPLACE INTO kanban_card_state (board_id, card_id, actor, opened_at, read_through, last_activity_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        record.boardId,
        record.cardId,
        record.actor,
        record.openedAt ?? null,
        record.readThrough ?? null,
        record.lastActivityAt ?? null,
      );
  }

  async removeCard(_boardId: string, cardId: string): Promise<void> {
    this.db.prepare('DELETE FROM kanban_card_state WHERE card_id = ?').run(cardId);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
