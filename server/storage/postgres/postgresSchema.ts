import type { PostgresDatabase } from './postgresDatabase';
import { PostgresOpenError } from './postgresDatabase';

/** The same numbering as the MySQL card tables (mysqlSchema.ts), so a later migration can compare them. */
// 5: kanban_attachments, kanban_attachment_chunks and kanban_logs (see mysqlSchema.ts).
// 6: kanban_cards.links, the card's parent, relatesTo and duplicateOf as one JSON object (and later
// the column history, one more key of that object, with no change of schema).
const SCHEMA_VERSION = 6;

/**
 * Text compared and sorted byte by byte, whatever the database's locale: ids stay exact and lists
 * come out in the order the other providers give (MySQL's utf8mb4_bin, SQLite's BINARY).
 */
const TEXT = 'TEXT COLLATE "C"';

/**
 * The tables of mysqlSchema.ts in PostgreSQL's types: TEXT has no length limit to choose, BIGSERIAL
 * stands for AUTO_INCREMENT and TIMESTAMPTZ for DATETIME(3). See mysqlSchema.ts for what each holds.
 */
const TABLES = [
  `CREATE TABLE IF NOT EXISTS kanban_schema (
    part ${TEXT} NOT NULL PRIMARY KEY,
    version INTEGER NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS kanban_cards (
    id ${TEXT} NOT NULL PRIMARY KEY,
    board_id ${TEXT} NOT NULL,
    status ${TEXT} NOT NULL,
    order_key ${TEXT} NOT NULL,
    content ${TEXT} NOT NULL,
    priority ${TEXT} NOT NULL,
    assignee ${TEXT} NULL,
    due_date ${TEXT} NULL,
    labels ${TEXT} NOT NULL,
    metadata ${TEXT} NOT NULL,
    forms ${TEXT} NOT NULL,
    form_data ${TEXT} NOT NULL,
    actions ${TEXT} NULL,
    attachments ${TEXT} NOT NULL,
    created ${TEXT} NOT NULL,
    modified ${TEXT} NOT NULL,
    completed_at ${TEXT} NULL,
    blocked_by ${TEXT} NULL,
    archived_at ${TEXT} NULL,
    deleted_from ${TEXT} NULL,
    version BIGINT NOT NULL DEFAULT 1,
    links ${TEXT} NULL
  )`,
  // Tables a version-5 service made lack the column; a no-op on newer ones.
  `ALTER TABLE kanban_cards ADD COLUMN IF NOT EXISTS links ${TEXT} NULL`,
  'CREATE INDEX IF NOT EXISTS kanban_cards_board_status ON kanban_cards (board_id, status)',
  'CREATE INDEX IF NOT EXISTS kanban_cards_status ON kanban_cards (status)',
  `CREATE TABLE IF NOT EXISTS kanban_comments (
    card_id ${TEXT} NOT NULL,
    id ${TEXT} NOT NULL,
    seq_no INTEGER NOT NULL,
    author ${TEXT} NOT NULL,
    content ${TEXT} NOT NULL,
    created ${TEXT} NOT NULL,
    modified ${TEXT} NULL,
    PRIMARY KEY (card_id, id)
  )`,
  'CREATE INDEX IF NOT EXISTS kanban_comments_order ON kanban_comments (card_id, seq_no)',
  `CREATE TABLE IF NOT EXISTS kanban_changes (
    seq BIGSERIAL PRIMARY KEY,
    card_id ${TEXT} NOT NULL,
    board_id ${TEXT} NOT NULL,
    kind ${TEXT} NOT NULL,
    origin ${TEXT} NOT NULL,
    changed_at ${TEXT} NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS kanban_changes_time ON kanban_changes (changed_at)',
  `CREATE TABLE IF NOT EXISTS kanban_config (
    name ${TEXT} NOT NULL PRIMARY KEY,
    body ${TEXT} NOT NULL,
    version BIGINT NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS kanban_instances (
    id ${TEXT} NOT NULL PRIMARY KEY,
    host ${TEXT} NOT NULL,
    pid INTEGER NOT NULL,
    started ${TEXT} NOT NULL,
    last_seen ${TEXT} NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS kanban_instances_seen ON kanban_instances (last_seen)',
  // seq comes from the one-row counter below, taken under its row lock (see sqlEventLog.ts).
  `CREATE TABLE IF NOT EXISTS kanban_events (
    seq BIGINT NOT NULL PRIMARY KEY,
    origin ${TEXT} NOT NULL,
    body ${TEXT} NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS kanban_event_seq (
    name ${TEXT} NOT NULL PRIMARY KEY,
    seq BIGINT NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS kanban_card_state (
    card_id ${TEXT} NOT NULL,
    actor ${TEXT} NOT NULL,
    board_id ${TEXT} NOT NULL,
    opened_at ${TEXT} NULL,
    read_through ${TEXT} NULL,
    last_activity_at ${TEXT} NULL,
    version BIGINT NOT NULL,
    PRIMARY KEY (card_id, actor)
  )`,
  `CREATE TABLE IF NOT EXISTS kanban_card_state_changes (
    seq BIGSERIAL PRIMARY KEY,
    card_id ${TEXT} NOT NULL,
    actor ${TEXT} NULL,
    origin ${TEXT} NOT NULL,
    changed_at ${TEXT} NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS kanban_card_state_changes_time ON kanban_card_state_changes (changed_at)',
  `CREATE TABLE IF NOT EXISTS kanban_webhook_deliveries (
    id ${TEXT} NOT NULL PRIMARY KEY,
    webhook_id ${TEXT} NOT NULL,
    event ${TEXT} NOT NULL,
    body ${TEXT} NOT NULL,
    attempts INTEGER NOT NULL,
    due_at TIMESTAMPTZ(3) NOT NULL,
    created_at TIMESTAMPTZ(3) NOT NULL,
    origin ${TEXT} NOT NULL,
    owner ${TEXT} NULL,
    claim ${TEXT} NULL,
    lease_until TIMESTAMPTZ(3) NULL
  )`,
  'CREATE INDEX IF NOT EXISTS kanban_webhook_deliveries_due ON kanban_webhook_deliveries (due_at)',
  'CREATE INDEX IF NOT EXISTS kanban_webhook_deliveries_claim ON kanban_webhook_deliveries (claim)',
  'CREATE INDEX IF NOT EXISTS kanban_webhook_deliveries_webhook ON kanban_webhook_deliveries (webhook_id)',
  `CREATE TABLE IF NOT EXISTS kanban_webhook_attempts (
    seq BIGSERIAL PRIMARY KEY,
    webhook_id ${TEXT} NOT NULL,
    delivery_id ${TEXT} NOT NULL,
    event ${TEXT} NOT NULL,
    attempt INTEGER NOT NULL,
    status ${TEXT} NOT NULL,
    http_status INTEGER NULL,
    error ${TEXT} NULL,
    at ${TEXT} NOT NULL,
    duration_ms INTEGER NOT NULL,
    next_attempt_at ${TEXT} NULL,
    instance ${TEXT} NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS kanban_webhook_attempts_webhook ON kanban_webhook_attempts (webhook_id, seq)',
  `CREATE TABLE IF NOT EXISTS kanban_webhook_secrets (
    name ${TEXT} NOT NULL PRIMARY KEY,
    value ${TEXT} NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS kanban_claims (
    board_id ${TEXT} NOT NULL,
    card_id ${TEXT} NOT NULL,
    agent ${TEXT} NOT NULL,
    since ${TEXT} NOT NULL,
    until ${TEXT} NOT NULL,
    ttl_seconds INTEGER NULL,
    PRIMARY KEY (board_id, card_id)
  )`,
  `CREATE TABLE IF NOT EXISTS kanban_agent_sessions (
    board_id ${TEXT} NOT NULL,
    card_id ${TEXT} NOT NULL,
    agent ${TEXT} NOT NULL,
    state ${TEXT} NOT NULL,
    note ${TEXT} NULL,
    url ${TEXT} NULL,
    updated_at ${TEXT} NOT NULL,
    lease_seconds INTEGER NOT NULL,
    PRIMARY KEY (board_id, card_id)
  )`,
  `CREATE TABLE IF NOT EXISTS kanban_claim_lock (
    name ${TEXT} NOT NULL PRIMARY KEY,
    version BIGINT NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS kanban_claim_lapses (
    lapse ${TEXT} NOT NULL PRIMARY KEY,
    at ${TEXT} NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS kanban_claim_lapses_at ON kanban_claim_lapses (at)',
  `CREATE TABLE IF NOT EXISTS kanban_attachments (
    board_id ${TEXT} NOT NULL,
    card_id ${TEXT} NOT NULL,
    filename ${TEXT} NOT NULL,
    content_type ${TEXT} NULL,
    size BIGINT NOT NULL,
    blob_id ${TEXT} NOT NULL,
    PRIMARY KEY (board_id, card_id, filename)
  )`,
  `CREATE TABLE IF NOT EXISTS kanban_attachment_chunks (
    blob_id ${TEXT} NOT NULL,
    seq INTEGER NOT NULL,
    data BYTEA NOT NULL,
    PRIMARY KEY (blob_id, seq)
  )`,
  `CREATE TABLE IF NOT EXISTS kanban_logs (
    seq BIGSERIAL PRIMARY KEY,
    board_id ${TEXT} NOT NULL,
    card_id ${TEXT} NOT NULL,
    body ${TEXT} NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS kanban_logs_owner ON kanban_logs (board_id, card_id, seq)',
];

/** The webhook and claim tables are versioned apart from the card tables (their parts of kanban_schema). */
const PART_VERSIONS: Record<string, number> = { cards: SCHEMA_VERSION, webhooks: 1, claims: 1 };

/** Rows that must exist before the first write: the version of each part and the two counters. */
const SEED_ROWS = [
  ...Object.entries(PART_VERSIONS).map(
    ([part, version]) =>
      `INSERT INTO kanban_schema (part, version) VALUES ('${part}', ${version}) ON CONFLICT DO NOTHING`,
  ),
  "INSERT INTO kanban_event_seq (name, seq) VALUES ('events', 0) ON CONFLICT DO NOTHING",
  "INSERT INTO kanban_claim_lock (name, version) VALUES ('claims', 0) ON CONFLICT DO NOTHING",
  // An older database is brought up to date by the CREATE ... IF NOT EXISTS above; then it says so.
  `UPDATE kanban_schema SET version = ${SCHEMA_VERSION} WHERE part = 'cards' AND version < ${SCHEMA_VERSION}`,
];

/**
 * The key of the advisory lock taken while the schema is checked: CREATE TABLE IF NOT EXISTS is not
 * safe against itself in PostgreSQL (two instances starting at once can both try to create a table,
 * and one fails on the catalogue's unique index), so instances take turns.
 */
const SCHEMA_LOCK = 0x6b616e62;

/** Create the tables when missing, in one transaction; refuse a database written by a newer schema. */
export async function ensurePostgresSchema(db: PostgresDatabase): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.all('SELECT pg_advisory_xact_lock(?)', [SCHEMA_LOCK]);
    const [schemaTable, ...rest] = TABLES;
    await tx.run(schemaTable);
    // Checked before anything else is created: a newer service may have shaped the tables otherwise.
    refuseNewer(await tx.all<{ part: string; version: number }>('SELECT part, version FROM kanban_schema'));
    for (const statement of [...rest, ...SEED_ROWS]) await tx.run(statement);
  });
}

function refuseNewer(versions: { part: string; version: number }[]): void {
  for (const { part, version } of versions) {
    const known = PART_VERSIONS[part];
    if (known === undefined || Number(version) <= known) continue;
    const tables = part === 'cards' ? 'card' : part.slice(0, -1);
    throw new PostgresOpenError(
      `its ${tables} tables have schema version ${version}, newer than this service knows (${known}); update the service`,
      'database',
    );
  }
}
