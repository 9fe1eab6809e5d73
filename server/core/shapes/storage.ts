import { Type } from '@sinclair/typebox';
import { named } from './names';
import { count, mapOf, nullableText, text } from './parts';

/** What the storage reports: files it cannot serve, and the result of moving the cards to SQLite. */

/** A file the store could not read; reported by /api/workspace and never touched. */
export const InvalidFileSchema = named(
  'InvalidFile',
  Type.Object({
    path: text('path relative to the workspace'),
    reason: text('what is wrong'),
    line: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'the 1-based line the parser stopped at, when it says (YAML and JSON syntax, git conflict markers)',
      }),
    ),
    duplicateOf: Type.Optional(
      text(
        'the file parses but repeats the id of the card served from this file (an editor saved a moved card at its old path, say); it is ignored until one of the two goes',
      ),
    ),
  }),
);

export const MigrationResultSchema = named(
  'MigrationResult',
  Type.Object({
    from: text('provider the cards came from'),
    to: text('provider the cards are in now'),
    sqlitePath: text('the SQLite database, relative to the workspace'),
    cards: count('cards moved'),
    comments: count('comments moved'),
    attachments: count('attachment references moved'),
    boards: mapOf(count('cards'), 'board id to the number of cards moved'),
    skipped: Type.Array(InvalidFileSchema, {
      description: 'files or rows the source could not read; not moved, left where they are',
    }),
    source: text('where the old copy stays, as a backup'),
    movedAside: nullableText('where older data found in the target was moved before being replaced, or null'),
  }),
);
