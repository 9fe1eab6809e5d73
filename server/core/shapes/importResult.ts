import { Type } from '@sinclair/typebox';
import { named } from './names';
import { count, flag, text } from './parts';

/** What an import answers: the cards it made (or, in a dry run, would make), and what it left out. */

export const PlannedCardSchema = Type.Object({
  title: text('card title'),
  status: text('column it goes (or went) to'),
  importedFrom: text('where it came from; stored as metadata importedFrom'),
  id: Type.Optional(text('the new card id (only when applied)')),
});

/** A source's own words for what it could not take, e.g. a Trello card in a closed list. */
export const ImportNoteSchema = Type.Object({
  title: text('card title, file or row'),
  reason: text('what was left out and why'),
});

export const ImportResultSchema = named(
  'ImportResult',
  Type.Object({
    format: text('the source format'),
    board: text('board imported into'),
    applied: flag('false: a dry run, nothing was written'),
    created: count('cards created, or that a dry run would create'),
    newColumns: Type.Array(Type.Object({ id: text('column id'), name: text('column name') }), {
      description: 'columns the source names that the board lacks: created (or, in a dry run, to create)',
    }),
    cards: Type.Array(PlannedCardSchema, { description: 'the cards created (or to create), in source order' }),
    skipped: Type.Array(
      Type.Object({
        title: text('card title'),
        importedFrom: text('source key'),
        existingId: text('the card an earlier import made'),
      }),
      { description: 'cards an earlier import already brought in' },
    ),
    notes: Type.Array(ImportNoteSchema, { description: 'what the source held that was not imported' }),
  }),
);

/** A tool's folder as text files, paths relative to it: what a folder import sends and the Backlog.md export answers. */
export const SourceFilesSchema = named(
  'SourceFiles',
  Type.Object({
    files: Type.Array(
      Type.Object({ path: text('path relative to the folder, / separated'), content: text('the file as UTF-8 text') }),
    ),
  }),
);
