import type { SqliteConnection } from './sqliteConnection';
import { SqliteOpenError } from './sqliteDatabase';
import { chunkLegacyAttachments } from './sqliteBlobChunks';

/**
 * Tables of each SQLite provider. One file can hold all three parts (cards, attachments, card
 * state); each part creates only its own tables, on first use, and records its schema version so
 * an older service refuses a file written by a newer one instead of misreading it.
 */
const PARTS = {
  cards: {
    version: 5,
    ddl: `
      CREATE TABLE IF NOT EXISTS kanban_cards (
        id TEXT PRIMARY KEY NOT NULL,
        board_id TEXT NOT NULL,
        status TEXT NOT NULL,
        order_key TEXT NOT NULL,
        content TEXT NOT NULL,
        priority TEXT NOT NULL,
        assignee TEXT,
        due_date TEXT,
        labels TEXT NOT NULL,
        metadata TEXT NOT NULL,
        forms TEXT NOT NULL,
        form_data TEXT NOT NULL,
        actions TEXT,
        attachments TEXT NOT NULL,
        created TEXT NOT NULL,
        modified TEXT NOT NULL,
        completed_at TEXT,
        blocked_by TEXT,
        archived_at TEXT,
        deleted_from TEXT,
        version INTEGER NOT NULL DEFAULT 1,
        links TEXT
      );
      CREATE INDEX IF NOT EXISTS kanban_cards_board_status ON kanban_cards (board_id, status, order_key);
      CREATE INDEX IF NOT EXISTS kanban_cards_status ON kanban_cards (status);
      CREATE TABLE IF NOT EXISTS kanban_comments (
        card_id TEXT NOT NULL,
        id TEXT NOT NULL,
        seq_no INTEGER NOT NULL,
        author TEXT NOT NULL,
        content TEXT NOT NULL,
        created TEXT NOT NULL,
        modified TEXT,
        PRIMARY KEY (card_id, id)
      );
      CREATE INDEX IF NOT EXISTS kanban_comments_order ON kanban_comments (card_id, seq_no);
      CREATE TABLE IF NOT EXISTS kanban_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        card_id TEXT NOT NULL,
        board_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        origin TEXT NOT NULL,
        changed_at TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS kanban_changes_time ON kanban_changes (changed_at);`,
    // 2: blocked_by and archived_at (dependencies and the archive). 3: version, which every write
    // checks and bumps so two processes never overwrite each other's change (existing rows start at 1).
    // 4: deleted_from, the column a soft-deleted card left, so a restore puts it back there.
    // 5: links, the card's parent, relatesTo and duplicateOf as one JSON object (sub-cards and relations);
    // the column history joined that object later as one more key, with no change of schema.
    upgrade: (db: SqliteConnection, from: number) => {
      if (from < 2)
        db.exec(
          'ALTER TABLE kanban_cards ADD COLUMN blocked_by TEXT; ALTER TABLE kanban_cards ADD COLUMN archived_at TEXT;',
        );
      if (from < 3) db.exec('ALTER TABLE kanban_cards ADD COLUMN version INTEGER NOT NULL DEFAULT 1;');
      if (from < 4) db.exec('ALTER TABLE kanban_cards ADD COLUMN deleted_from TEXT;');
      if (from < 5) db.exec('ALTER TABLE kanban_cards ADD COLUMN links TEXT;');
    },
  },
  attachments: {
    // 2: payloads are pieces in kanban_attachment_chunks, so a download reads one piece at a time;
    // `data` holds the id of the payload's pieces (text) instead of the bytes (see sqliteBlobChunks.ts).
    version: 2,
    ddl: `
      CREATE TABLE IF NOT EXISTS kanban_attachments (
        board_id TEXT NOT NULL,
        card_id TEXT NOT NULL,
        filename TEXT NOT NULL,
        content_type TEXT,
        size INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (board_id, card_id, filename)
      );
      CREATE TABLE IF NOT EXISTS kanban_attachment_chunks (
        blob_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (blob_id, seq)
      );`,
    upgrade: (db: SqliteConnection, from: number) => {
      if (from < 2) chunkLegacyAttachments(db);
    },
  },
  cardState: {
    // 2: a version per row and a change log, so that processes sharing the file (`shared: true`)
    // follow each other's card state as MySQL instances do (sql/sqlCardStateStore.ts).
    version: 2,
    ddl: `
      CREATE TABLE IF NOT EXISTS kanban_card_state (
        board_id TEXT NOT NULL,
        card_id TEXT NOT NULL,
        actor TEXT NOT NULL,
        opened_at TEXT,
        read_through TEXT,
        last_activity_at TEXT,
        version INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (card_id, actor)
      );
      CREATE TABLE IF NOT EXISTS kanban_card_state_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        card_id TEXT NOT NULL,
        actor TEXT,
        origin TEXT NOT NULL,
        changed_at TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS kanban_card_state_changes_time ON kanban_card_state_changes (changed_at);`,
    upgrade: (db: SqliteConnection, from: number) => {
      if (from < 2) db.exec('ALTER TABLE kanban_card_state ADD COLUMN version INTEGER NOT NULL DEFAULT 1;');
    },
  },
  // Agents' claims and sessions beside the cards (sql/sqlClaimStore.ts): every process over the
  // file decides under its write lock (BEGIN IMMEDIATE); the lock row's version tells the others
  // that something changed.
  claims: {
    version: 1,
    ddl: `
      CREATE TABLE IF NOT EXISTS kanban_claims (
        board_id TEXT NOT NULL,
        card_id TEXT NOT NULL,
        agent TEXT NOT NULL,
        since TEXT NOT NULL,
        until TEXT NOT NULL,
        ttl_seconds INTEGER,
        PRIMARY KEY (board_id, card_id)
      );
      CREATE TABLE IF NOT EXISTS kanban_agent_sessions (
        board_id TEXT NOT NULL,
        card_id TEXT NOT NULL,
        agent TEXT NOT NULL,
        state TEXT NOT NULL,
        note TEXT,
        url TEXT,
        updated_at TEXT NOT NULL,
        lease_seconds INTEGER NOT NULL,
        PRIMARY KEY (board_id, card_id)
      );
      CREATE TABLE IF NOT EXISTS kanban_claim_lock (
        name TEXT PRIMARY KEY NOT NULL,
        version INTEGER NOT NULL
      );
      INSERT OR IGNORE INTO kanban_claim_lock (name, version) VALUES ('claims', 0);
      CREATE TABLE IF NOT EXISTS kanban_claim_lapses (
        lapse TEXT PRIMARY KEY NOT NULL,
        at TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS kanban_claim_lapses_at ON kanban_claim_lapses (at);`,
  },
  // Several server processes over one file (`shared: true`): the workspace configuration, the live
  // instances, the global event log and webhook deliveries (leases: epoch ms of the one machine's
  // clock) with their log and secrets, as over MySQL (sql/sqlSharedConfig.ts, sql/sqlEventLog.ts).
  shared: {
    version: 1,
    ddl: `
      CREATE TABLE IF NOT EXISTS kanban_config (
        name TEXT PRIMARY KEY NOT NULL,
        body TEXT NOT NULL,
        version INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS kanban_instances (
        id TEXT PRIMARY KEY NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        started TEXT NOT NULL,
        last_seen TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS kanban_instances_seen ON kanban_instances (last_seen);
      CREATE TABLE IF NOT EXISTS kanban_events (
        seq INTEGER PRIMARY KEY NOT NULL,
        origin TEXT NOT NULL,
        body TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS kanban_event_seq (
        name TEXT PRIMARY KEY NOT NULL,
        seq INTEGER NOT NULL
      );
      INSERT OR IGNORE INTO kanban_event_seq (name, seq) VALUES ('events', 0);
      CREATE TABLE IF NOT EXISTS kanban_webhook_deliveries (
        id TEXT PRIMARY KEY NOT NULL,
        webhook_id TEXT NOT NULL,
        event TEXT NOT NULL,
        body TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        due_at INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        origin TEXT NOT NULL,
        owner TEXT,
        claim TEXT,
        lease_until INTEGER
      );
      CREATE INDEX IF NOT EXISTS kanban_webhook_deliveries_due ON kanban_webhook_deliveries (due_at);
      CREATE INDEX IF NOT EXISTS kanban_webhook_deliveries_webhook ON kanban_webhook_deliveries (webhook_id);
      CREATE TABLE IF NOT EXISTS kanban_webhook_attempts (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        webhook_id TEXT NOT NULL,
        delivery_id TEXT NOT NULL,
        event TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        status TEXT NOT NULL,
        http_status INTEGER,
        error TEXT,
        at TEXT NOT NULL,
        duration_ms INTEGER NOT NULL,
        next_attempt_at TEXT,
        instance TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS kanban_webhook_attempts_webhook ON kanban_webhook_attempts (webhook_id, seq);
      CREATE TABLE IF NOT EXISTS kanban_webhook_secrets (
        name TEXT PRIMARY KEY NOT NULL,
        value TEXT NOT NULL
      );`,
  },
} as const;

export type SqlitePart = keyof typeof PARTS;

type Upgrade = (db: SqliteConnection, fromVersion: number) => void;

/** Create the part's tables when missing, in one write transaction (safe when two processes race). */
export function ensureSqliteSchema(db: SqliteConnection, part: SqlitePart): void {
  const { version, ddl } = PARTS[part];
  const upgrade = (PARTS[part] as { upgrade?: Upgrade }).upgrade;
  const create = db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS kanban_schema (part TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL)');
    const row = db.prepare('SELECT version FROM kanban_schema WHERE part = ?').get(part) as
      { version: number } | undefined;
    if (row && row.version > version) {
      throw new SqliteOpenError(
        `its ${part} tables have schema version ${row.version}, newer than this service knows (${version}); update the service`,
      );
    }
    // An older file's tables exist already: CREATE IF NOT EXISTS leaves them as they were, and the
    // part's upgrade brings them up to date.
    db.exec(ddl);
    if (!row) db.prepare('INSERT INTO kanban_schema (part, version) VALUES (?, ?)').run(part, version);
    else if (row.version < version) {
      upgrade?.(db, row.version);
      db.prepare('UPDATE kanban_schema SET version = ? WHERE part = ?').run(version, part);
    }
  });
  try {
    create.immediate();
  } catch (error) {
    if (error instanceof SqliteOpenError) throw error;
    throw new SqliteOpenError(`cannot create its ${part} tables: ${(error as Error).message}`, error);
  }
}
