import { anyObject, count, fields, flag, list, map, named, nullable, text, time } from './schemaParts';

/**
 * Schemas of the success `data` of the routes around the cards rather than of them: logs, webhooks,
 * storage migration and import, the path check. Plain JSON schemas, as in responseSchemas.ts.
 */

export const logEntrySchema = named(
  'LogEntry',
  fields(
    {
      text: text('Markdown'),
      source: text('who or what wrote it; "default" when not given'),
      object: anyObject('structured data, as posted'),
      timestamp: time('when it happened'),
    },
    'a log entry exactly as posted, plus defaults',
    ['object'],
  ),
);

export const logEntryListSchema = list(logEntrySchema, 'entries, oldest first');

export const resolvedPathSchema = named(
  'ResolvedPath',
  fields({
    input: text('the path as given'),
    path: text('absolute, canonical path (symbolic links resolved when it exists)'),
    exists: flag('whether something exists at that path'),
  }),
);

export const webhookSchema = named(
  'Webhook',
  fields(
    {
      id: text('wh_ and 16 hex characters'),
      url: text('receives a POST per matching event'),
      events: list({ type: 'string' }, 'event names, "*" or "prefix.*"'),
      active: flag('false while delivery is paused'),
      hasSecret: flag('whether deliveries are signed; the secret itself is never shown'),
    },
    'a registered webhook',
  ),
);

export const webhookListSchema = list(webhookSchema);

export const webhookDeliverySchema = named(
  'WebhookDelivery',
  fields(
    {
      deliveryId: text('the X-Webhook-Delivery header and body id of the delivery'),
      event: text('event name'),
      attempt: count('1 for the first try; 0 when the delivery was dropped before any try'),
      status: {
        type: 'string',
        enum: ['delivered', 'retrying', 'failed', 'dropped'],
        description: 'retrying: another attempt follows; failed: gave up; dropped: not sent',
      },
      httpStatus: nullable('integer', "the receiver's HTTP status, or null when none came"),
      error: nullable('string', 'what went wrong, or null'),
      at: time('when the attempt was made'),
      durationMs: count('how long the attempt took'),
      nextAttemptAt: time('when the next attempt is due; only while retrying'),
    },
    'one delivery attempt',
    ['nextAttemptAt'],
  ),
);

export const webhookDeliveryListSchema = list(webhookDeliverySchema, 'the last 50 attempts, newest first');

export const invalidFileSchema = named(
  'InvalidFile',
  fields(
    {
      path: text('path relative to the workspace'),
      reason: text('what is wrong'),
      line: {
        type: 'integer',
        minimum: 1,
        description:
          'the 1-based line the parser stopped at, when it says (YAML and JSON syntax, git conflict markers)',
      },
      duplicateOf: text(
        'the file parses but repeats the id of the card served from this file (an editor saved a moved card at its old path, say); it is ignored until one of the two goes',
      ),
    },
    undefined,
    ['line', 'duplicateOf'],
  ),
);

export const migrationResultSchema = named(
  'MigrationResult',
  fields({
    from: text('provider the cards came from'),
    to: text('provider the cards are in now'),
    sqlitePath: text('the SQLite database, relative to the workspace'),
    cards: count('cards moved'),
    comments: count('comments moved'),
    attachments: count('attachment references moved'),
    boards: map(count('cards'), 'board id to the number of cards moved'),
    skipped: list(invalidFileSchema, 'files or rows the source could not read; not moved, left where they are'),
    source: text('where the old copy stays, as a backup'),
    movedAside: nullable('string', 'where older data found in the target was moved before being replaced, or null'),
  }),
);

const importedCardSchema = fields(
  {
    title: text('card title'),
    status: text('column it goes (or went) to'),
    importedFrom: text('where it came from; stored as metadata importedFrom'),
    id: text('the new card id (only when applied)'),
  },
  undefined,
  ['id'],
);

export const importResultSchema = named(
  'ImportResult',
  fields({
    format: text('the source format'),
    board: text('board imported into'),
    applied: flag('false: a dry run, nothing was written'),
    created: count('cards created, or that a dry run would create'),
    cards: list(importedCardSchema, 'the cards created (or to create), in source order'),
    skipped: list(
      fields({
        title: text('card title'),
        importedFrom: text('source key'),
        existingId: text('the card an earlier import made'),
      }),
      'cards an earlier import already brought in',
    ),
    notes: list(
      fields({ title: text('card title, file or row'), reason: text('what was left out and why') }),
      'what the source held that was not imported',
    ),
  }),
);
