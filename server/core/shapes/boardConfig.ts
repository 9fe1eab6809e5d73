import { Type, type TSchema } from '@sinclair/typebox';
import { BOARD_OR_COLUMN_ID } from '../ids';
import { choice, described, textList, textMap } from './parts';
import { PRIORITIES, RESERVED_STATUS_IDS, WIP_POLICIES } from './vocabulary';

/**
 * A board of `.kanban.json` as the service holds it after parseConfig, which fills in what a file
 * may leave out (a name, the columns, their names and colours). BoardConfig of the core model is
 * this schema's type; the config's JSON Schema for editors requires of a file only what it must
 * have (config/configSchema.ts, with `asWritten`).
 */

const slug = (description?: string) => Type.String({ pattern: BOARD_OR_COLUMN_ID.source, ...described(description) });

export const priority = (description = 'critical, high, medium or low') =>
  choice(PRIORITIES, description, { bare: true });

export const ConfigColumnSchema = Type.Object({
  id: Type.String({
    pattern: BOARD_OR_COLUMN_ID.source,
    not: { enum: [...RESERVED_STATUS_IDS] },
    description: `the status stored in card files and the folder name: a-z, 0-9, - and _ (${RESERVED_STATUS_IDS.map((id) => `"${id}"`).join(' and ')} are reserved)`,
  }),
  name: Type.String({ description: 'shown as the column title (defaults to the id)' }),
  color: Type.String({ description: 'CSS color, e.g. #3b82f6' }),
  wipLimit: Type.Optional(
    Type.Integer({
      minimum: 1,
      description:
        'soft WIP limit: the header shows count/limit and turns to a warning colour when over (archived cards not counted)',
    }),
  ),
});

/** A board's columns, each in the form `column` writes it (as held, or as a file may write it). */
export const columnList = <C extends TSchema>(column: C, description = 'the columns, left to right') =>
  Type.Array(column, { description });

export const BoardConfigSchema = Type.Object({
  id: slug('folder name under .kanban/boards/'),
  name: Type.String({ description: 'shown in the board switcher (defaults to the id)' }),
  description: Type.Optional(Type.String()),
  columns: columnList(ConfigColumnSchema),
  defaultStatus: Type.Optional(
    Type.String({ description: 'column of new cards on this board (else settings.defaultStatus)' }),
  ),
  startStatus: Type.Optional(
    slug(
      'column `kanban start` moves a card to; must be a column of this board (else the first in-progress, doing, wip, started or active column, else the second column)',
    ),
  ),
  pickFrom: Type.Optional(
    Type.Array(slug(), {
      minItems: 1,
      uniqueItems: true,
      description:
        'columns `kanban pick` (POST /api/tasks/pick) takes cards from; each must be a column of this board (else every column before the start column)',
    }),
  ),
  defaultPriority: Type.Optional(priority('priority of new cards on this board (else settings.defaultPriority)')),
  actions: textMap('board actions: key -> title, announced as board.action.triggered'),
  minimizedColumnIds: textList('columns shown collapsed'),
  wipPolicy: Type.Optional(
    choice(
      WIP_POLICIES,
      {
        default: 'warn',
        description:
          'a move or create into a column at its wipLimit: warn (allowed, with a Warning header and a toast) or block (refused with 409)',
      },
      { bare: true },
    ),
  ),
  autoArchiveDays: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'archive cards that have stayed this many days in the last column (checked at start and hourly)',
    }),
  ),
});
