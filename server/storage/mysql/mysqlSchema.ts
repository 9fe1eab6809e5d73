import type { MysqlDatabase } from './mysqlDatabase';
import { MysqlOpenError } from './mysqlDatabase';

// 3: kanban_cards.version, checked and bumped by every card write (see sqlCardStore.ts).
// 4: kanban_cards.deleted_from, the column a soft-deleted card left (a restore goes back there).
// 5: kanban_attachments, kanban_attachment_chunks and kanban_logs: attachments and logs live in the
//    database, so every instance sees them (an older service would keep them in its local files).
// 6: kanban_cards.links, the card's parent, relatesTo and duplicateOf as one JSON object (and later
// the column history, one more key of that object, with no change of schema).
const SCHEMA_VERSION = 6;
const TABLE_OPTIONS = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin';

/**
 * The card tables, created on first use. utf8mb4 holds any text (emoji included); the binary
 * collation keeps ids exact (no case or accent folding). Ids get 255 characters, enough for any
 * slug or hand-made file name, and within InnoDB's key size for the composite keys.
 */
const TABLES = [
  `CREATE TABLE IF NOT EXISTS kanban_schema (
    part VARCHAR(64) NOT NULL PRIMARY KEY,
    version INT NOT NULL
  ) ${TABLE_OPTIONS}`,
  `CREATE TABLE IF NOT EXISTS kanban_cards (
    id VARCHAR(255) NOT NULL,
    board_id VARCHAR(255) NOT NULL,
    status VARCHAR(255) NOT NULL,
    order_key TEXT NOT NULL,
    content LONGTEXT NOT NULL,
    priority VARCHAR(16) NOT NULL,
    assignee TEXT NULL,
    due_date TEXT NULL,
    labels LONGTEXT NOT NULL,
    metadata LONGTEXT NOT NULL,
    forms LONGTEXT NOT NULL,
    form_data LONGTEXT NOT NULL,
    actions LONGTEXT NULL,
    attachments LONGTEXT NOT NULL,
    created VARCHAR(64) NOT NULL,
    modified VARCHAR(64) NOT NULL,
    completed_at VARCHAR(64) NULL,
    blocked_by LONGTEXT NULL,
    archived_at VARCHAR(64) NULL,
    deleted_from VARCHAR(255) NULL,
    version BIGINT NOT NULL DEFAULT 1,
    links LONGTEXT NULL,
    PRIMARY KEY (id),
    KEY kanban_cards_board_status (board_id, status),
    KEY kanban_cards_status (status)
  ) ${TABLE_OPTIONS}`,
  `CREATE TABLE IF NOT EXISTS kanban_comments (
    card_id VARCHAR(255) NOT NULL,
    id VARCHAR(255) NOT NULL,
    seq_no INT NOT NULL,
    author TEXT NOT NULL,
    content LONGTEXT NOT NULL,
    created VARCHAR(64) NOT NULL,
    modified VARCHAR(64) NULL,
    PRIMARY KEY (card_id, id),
    KEY kanban_comments_order (card_id, seq_no)
  ) ${TABLE_OPTIONS}`,
  `CREATE TABLE IF NOT EXISTS kanban_changes (
    seq BIGINT NOT NULL AUTO_INCREMENT,
    card_id VARCHAR(255) NOT NULL,
    board_id VARCHAR(255) NOT NULL,
    kind VARCHAR(16) NOT NULL,
    origin VARCHAR(32) NOT NULL,
    changed_at VARCHAR(32) NOT NULL,
    PRIMARY KEY (seq),
    KEY kanban_changes_time (changed_at)
  ) ${TABLE_OPTIONS}`,
  `CREATE TABLE IF NOT EXISTS kanban_config (
    name VARCHAR(64) NOT NULL,
    body LONGTEXT NOT NULL,
    version BIGINT NOT NULL,
    PRIMARY KEY (name)
  ) ${TABLE_OPTIONS}`,
  `CREATE TABLE IF NOT EXISTS kanban_instances (
    id VARCHAR(64) NOT NULL,
    host VARCHAR(255) NOT NULL,
    pid INT NOT NULL,
    started VARCHAR(32) NOT NULL,
    last_seen VARCHAR(32) NOT NULL,
    PRIMARY KEY (id),
    KEY kanban_instances_seen (last_seen)
  ) ${TABLE_OPTIONS}`,
  // The global event log: every instance appends the events of its own changes and delivers the
  // log, in seq order, to its WebSocket clients (seq is the revision they see). seq comes from the
  // one-row counter below, taken under its row lock, so numbers commit in order and without holes.
  `CREATE TABLE IF NOT EXISTS kanban_events (
    seq BIGINT NOT NULL,
    origin VARCHAR(32) NOT NULL,
    body LONGTEXT NOT NULL,
    PRIMARY KEY (seq)
  ) ${TABLE_OPTIONS}`,
  `CREATE TABLE IF NOT EXISTS kanban_event_seq (
    name VARCHAR(16) NOT NULL PRIMARY KEY,
    seq BIGINT NOT NULL
  ) ${TABLE_OPTIONS}`,
  // Per-actor card state (the default card.state over MySQL). Keyed by card id, which is unique in
  // the workspace, so a record follows its card to another board; version grows with every write.
  `CREATE TABLE IF NOT EXISTS kanban_card_state (
    card_id VARCHAR(255) NOT NULL,
    actor VARCHAR(255) NOT NULL,
    board_id VARCHAR(255) NOT NULL,
    opened_at VARCHAR(32) NULL,
    read_through VARCHAR(32) NULL,
    last_activity_at VARCHAR(32) NULL,
    version BIGINT NOT NULL,
    PRIMARY KEY (card_id, actor)
  ) ${TABLE_OPTIONS}`,
  // What changed, for other instances to follow; actor NULL means every record of the card was removed.
  `CREATE TABLE IF NOT EXISTS kanban_card_state_changes (
    seq BIGINT NOT NULL AUTO_INCREMENT,
    card_id VARCHAR(255) NOT NULL,
    actor VARCHAR(255) NULL,
    origin VARCHAR(32) NOT NULL,
    changed_at VARCHAR(32) NOT NULL,
    PRIMARY KEY (seq),
    KEY kanban_card_state_changes_time (changed_at)
  ) ${TABLE_OPTIONS}`,
  // Webhook deliveries not yet settled, one row per (event, webhook): any instance may claim a due
  // row by writing its claim and a lease; an expired lease is free again (see mysqlWebhookStore.ts).
  `CREATE TABLE IF NOT EXISTS kanban_webhook_deliveries (
    id VARCHAR(64) NOT NULL,
    webhook_id VARCHAR(255) NOT NULL,
    event VARCHAR(64) NOT NULL,
    body LONGTEXT NOT NULL,
    attempts INT NOT NULL,
    due_at DATETIME(3) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    origin VARCHAR(64) NOT NULL,
    owner VARCHAR(64) NULL,
    claim VARCHAR(64) NULL,
    lease_until DATETIME(3) NULL,
    PRIMARY KEY (id),
    KEY kanban_webhook_deliveries_due (due_at),
    KEY kanban_webhook_deliveries_claim (claim),
    KEY kanban_webhook_deliveries_webhook (webhook_id)
  ) ${TABLE_OPTIONS}`,
  // The delivery log every instance writes and reads (GET /webhooks/{id}/deliveries).
  `CREATE TABLE IF NOT EXISTS kanban_webhook_attempts (
    seq BIGINT NOT NULL AUTO_INCREMENT,
    webhook_id VARCHAR(255) NOT NULL,
    delivery_id VARCHAR(64) NOT NULL,
    event VARCHAR(64) NOT NULL,
    attempt INT NOT NULL,
    status VARCHAR(16) NOT NULL,
    http_status INT NULL,
    error TEXT NULL,
    at VARCHAR(32) NOT NULL,
    duration_ms INT NOT NULL,
    next_attempt_at VARCHAR(32) NULL,
    instance VARCHAR(64) NOT NULL,
    PRIMARY KEY (seq),
    KEY kanban_webhook_attempts_webhook (webhook_id, seq)
  ) ${TABLE_OPTIONS}`,
  // Literal webhook secrets (`${secret:<name>}` in the shared configuration), so any instance can sign.
  `CREATE TABLE IF NOT EXISTS kanban_webhook_secrets (
    name VARCHAR(255) NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (name)
  ) ${TABLE_OPTIONS}`,
  // Agents' claims and sessions (sql/sqlClaimStore.ts), decided under the row lock of
  // kanban_claim_lock, whose version tells other instances that something changed.
  `CREATE TABLE IF NOT EXISTS kanban_claims (
    board_id VARCHAR(255) NOT NULL,
    card_id VARCHAR(255) NOT NULL,
    agent VARCHAR(64) NOT NULL,
    since VARCHAR(32) NOT NULL,
    until VARCHAR(32) NOT NULL,
    ttl_seconds INT NULL,
    PRIMARY KEY (board_id, card_id)
  ) ${TABLE_OPTIONS}`,
  `CREATE TABLE IF NOT EXISTS kanban_agent_sessions (
    board_id VARCHAR(255) NOT NULL,
    card_id VARCHAR(255) NOT NULL,
    agent VARCHAR(64) NOT NULL,
    state VARCHAR(32) NOT NULL,
    note TEXT NULL,
    url TEXT NULL,
    updated_at VARCHAR(32) NOT NULL,
    lease_seconds INT NOT NULL,
    PRIMARY KEY (board_id, card_id)
  ) ${TABLE_OPTIONS}`,
  `CREATE TABLE IF NOT EXISTS kanban_claim_lock (
    name VARCHAR(16) NOT NULL PRIMARY KEY,
    version BIGINT NOT NULL
  ) ${TABLE_OPTIONS}`,
  // Leases that ran out and sessions turned stale, each announced by the one instance that wrote its key.
  // Attachment payloads (sql/sqlAttachmentStore.ts): one row per card and file name, pointing at its
  // payload's pieces; a replacement writes new pieces, so a running download never mixes two files.
  `CREATE TABLE IF NOT EXISTS kanban_attachments (
    board_id VARCHAR(255) NOT NULL,
    card_id VARCHAR(255) NOT NULL,
    filename VARCHAR(255) NOT NULL,
    content_type TEXT NULL,
    size BIGINT NOT NULL,
    blob_id VARCHAR(64) NOT NULL,
    PRIMARY KEY (board_id, card_id, filename)
  ) ${TABLE_OPTIONS}`,
  `CREATE TABLE IF NOT EXISTS kanban_attachment_chunks (
    blob_id VARCHAR(64) NOT NULL,
    seq INT NOT NULL,
    data LONGBLOB NOT NULL,
    PRIMARY KEY (blob_id, seq)
  ) ${TABLE_OPTIONS}`,
  // Card and board logs (sql/sqlLogStore.ts), append-only; card_id '' is the board's own log.
  `CREATE TABLE IF NOT EXISTS kanban_logs (
    seq BIGINT NOT NULL AUTO_INCREMENT,
    board_id VARCHAR(255) NOT NULL,
    card_id VARCHAR(255) NOT NULL,
    body LONGTEXT NOT NULL,
    PRIMARY KEY (seq),
    KEY kanban_logs_owner (board_id, card_id, seq)
  ) ${TABLE_OPTIONS}`,
  `CREATE TABLE IF NOT EXISTS kanban_claim_lapses (
    lapse CHAR(64) NOT NULL PRIMARY KEY,
    at VARCHAR(32) NOT NULL,
    KEY kanban_claim_lapses_at (at)
  ) ${TABLE_OPTIONS}`,
];

/** The webhook and claim tables are versioned apart from the card tables (their parts of kanban_schema). */
const PART_VERSIONS = { webhooks: 1, claims: 1 } as const;

/** Create the tables when missing; refuse a database written by a newer schema. */
export async function ensureMysqlSchema(db: MysqlDatabase): Promise<void> {
  // DDL commits implicitly in MySQL, so each statement stands alone; IF NOT EXISTS makes a race harmless.
  for (const ddl of TABLES) await db.pool.query(ddl);
  await db.pool.query('INSERT IGNORE INTO kanban_schema (part, version) VALUES (?, ?)', ['cards', SCHEMA_VERSION]);
  await db.pool.query('INSERT IGNORE INTO kanban_event_seq (name, seq) VALUES (?, 0)', ['events']);
  await db.pool.query('INSERT IGNORE INTO kanban_claim_lock (name, version) VALUES (?, 0)', ['claims']);
  const rows = await db.all<{ version: number }>('SELECT version FROM kanban_schema WHERE part = ?', ['cards']);
  const version = Number(rows[0]?.version ?? SCHEMA_VERSION);
  if (version > SCHEMA_VERSION) {
    throw new MysqlOpenError(
      `its card tables have schema version ${version}, newer than this service knows (${SCHEMA_VERSION}); update the service`,
      'database',
    );
  }
  if (version < SCHEMA_VERSION) await upgradeMysqlSchema(db);
  for (const [part, known] of Object.entries(PART_VERSIONS)) {
    await db.pool.query('INSERT IGNORE INTO kanban_schema (part, version) VALUES (?, ?)', [part, known]);
    const [row] = await db.all<{ version: number }>('SELECT version FROM kanban_schema WHERE part = ?', [part]);
    if (Number(row?.version ?? known) > known) {
      throw new MysqlOpenError(
        `its ${part.slice(0, -1)} tables have schema version ${row.version}, newer than this service knows (${known}); update the service`,
        'database',
      );
    }
  }
}

/** Columns added after version 1 (in versions 2 to 4 and 6; version 5 only added tables), each with its type; added when a table lacks them. */
const ADDED_CARD_COLUMNS: [string, string][] = [
  ['blocked_by', 'LONGTEXT NULL'],
  ['archived_at', 'VARCHAR(64) NULL'],
  // Existing rows start at version 1.
  ['version', 'BIGINT NOT NULL DEFAULT 1'],
  ['deleted_from', 'VARCHAR(255) NULL'],
  ['links', 'LONGTEXT NULL'],
];

/**
 * Bring older tables up to date. Several instances may start at once over one database, so
 * each column is added only when the catalogue says it is missing, and a lost race (the column
 * appeared meanwhile: error 1060) is harmless.
 */
async function upgradeMysqlSchema(db: MysqlDatabase): Promise<void> {
  const present = await db.all<{ name: string }>(
    'SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
    ['kanban_cards'],
  );
  const have = new Set(present.map((c) => c.name));
  for (const [name, type] of ADDED_CARD_COLUMNS) {
    if (have.has(name)) continue;
    try {
      await db.pool.query(`ALTER TABLE kanban_cards ADD COLUMN ${name} ${type}`);
    } catch (error) {
      if ((error as { errno?: number }).errno !== 1060) throw error;
    }
  }
  await db.pool.query('UPDATE kanban_schema SET version = ? WHERE part = ? AND version < ?', [
    SCHEMA_VERSION,
    'cards',
    SCHEMA_VERSION,
  ]);
}
