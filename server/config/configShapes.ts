import { Type, type TObject, type TProperties } from '@sinclair/typebox';
import { DEFAULT_SETTINGS } from '../core/defaults';
import { BOARD_OR_COLUMN_ID } from '../core/ids';
import type { BoardConfig, Settings } from '../core/model';
import { BACKGROUND_MODES, BACKGROUND_PRESETS, PRIORITIES, WIP_POLICIES } from '../core/shapes/vocabulary';
import { RESERVED_STATUS_IDS } from '../core/cardPlace';
import { VIEW_LAYOUTS } from '../core/savedViews';
import { choice, mapOf, openObject, textList, textMap } from '../core/shapes/parts';

/**
 * The parts of `.kanban.json`, each once, as TypeBox schemas: configSchema.ts puts them together
 * into the JSON Schema of the file (editors, unknown-key warnings, doctor), and types.ts derives the
 * configuration's types from them. A part is written as the service holds it after parseConfig;
 * `asWritten` says which of its fields a file must have, parseConfig filling in the rest.
 */

/** The same object schema, requiring of a file only `required` (parseConfig fills in the others). */
export function asWritten<T extends TObject>(schema: T, required: string[]): T {
  return { ...schema, required };
}

const slug = (description?: string) =>
  Type.String({ pattern: BOARD_OR_COLUMN_ID.source, ...(description ? { description } : {}) });
export const priority = (description = 'critical, high, medium or low') =>
  choice(PRIORITIES, description, { bare: true });

export const column = Type.Object({
  id: Type.String({
    pattern: BOARD_OR_COLUMN_ID.source,
    not: { enum: [...RESERVED_STATUS_IDS] },
    description: `the status stored in card files and the folder name: a-z, 0-9, - and _ (${RESERVED_STATUS_IDS.map((id) => `"${id}"`).join(' and ')} are reserved)`,
  }),
  name: Type.Optional(Type.String({ description: 'shown as the column title (defaults to the id)' })),
  color: Type.Optional(Type.String({ description: 'CSS color, e.g. #3b82f6' })),
  wipLimit: Type.Optional(
    Type.Integer({
      minimum: 1,
      description:
        'soft WIP limit: the header shows count/limit and turns to a warning colour when over (archived cards not counted)',
    }),
  ),
});

export const columns = (description = 'the columns, left to right') => Type.Array(column, { description });

/** A board's fields besides its id; a file may leave out any of them. */
export const boardFields = {
  name: Type.Optional(Type.String({ description: 'shown in the board switcher (defaults to the id)' })),
  description: Type.Optional(Type.String()),
  columns: Type.Optional(columns()),
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
  actions: Type.Optional(textMap('board actions: key -> title, announced as board.action.triggered')),
  minimizedColumnIds: Type.Optional(textList('columns shown collapsed')),
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
} satisfies TProperties;

/**
 * A board as a file writes it. Its type, with the defaults filled in, is BoardConfig of the core
 * model (the read models share it), so this schema is tied to that type rather than deriving one.
 */
export const board = Type.Unsafe<BoardConfig>(
  Type.Object({ id: slug('folder name under .kanban/boards/'), ...boardFields }),
);

/** Every setting with its type and default; settings this version does not know are ignored, as by the service. */
export function settings() {
  const enums: Record<string, readonly string[]> = {
    defaultPriority: PRIORITIES,
    boardBackgroundMode: BACKGROUND_MODES,
    boardBackgroundPreset: BACKGROUND_PRESETS,
  };
  const properties = Object.fromEntries(
    Object.entries(DEFAULT_SETTINGS).map(([key, value]) => [
      key,
      enums[key] ? { enum: [...enums[key]], default: value } : { type: typeof value, default: value },
    ]),
  );
  return Type.Unsafe<Settings>({ type: 'object', properties });
}

export const label = Type.Object({ color: Type.String(), group: Type.Optional(Type.String()) });

export const form = Type.Object({
  schema: openObject({}, { bare: true }),
  data: Type.Optional(openObject({}, { bare: true })),
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});

export const webhook = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: textList('event names, "prefix.*" or "*"'),
  secret: Type.Optional(Type.String({ description: 'write ${ENV_NAME}: a literal secret is moved out of this file' })),
  active: Type.Boolean(),
});

export const savedView = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' }),
  name: Type.String(),
  board: Type.String({ description: 'id of the board the view shows' }),
  layout: choice(VIEW_LAYOUTS, {}, { bare: true }),
  filter: mapOf(Type.Unsafe<string | boolean | number>({ type: ['string', 'boolean', 'number'] }), {
    description:
      'list-route query parameters: q, status, priority, assignee, label, labelGroup, due, ready, meta.<path>, ...',
  }),
  sort: Type.String({ description: 'a list-route sort value such as -priority; "" for the board order' }),
  groupBy: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    description: 'assignee, priority, labelGroup:<group> or metadata:<key path>',
  }),
});

export const plugin = Type.Object({ provider: Type.String(), options: openObject({}, { bare: true }) });

export const server = Type.Object({
  allowedOrigins: Type.Optional(textList('web origins whose pages may change the board, e.g. "https://example.com"')),
});

/**
 * `.kanban.json`, version 2 layout, as held in memory (`${ENV}` values unresolved). It describes
 * the types only: a file is checked by parseConfig, and editors by the file's schema.
 */
export const kanbanConfig = Type.Object({
  version: Type.Literal(2),
  defaultBoard: Type.String(),
  boards: Type.Array(board),
  settings: settings(),
  labels: mapOf(label),
  forms: mapOf(form),
  webhooks: Type.Array(webhook),
  views: Type.Array(savedView),
  plugins: mapOf(plugin),
  /** Absent when the file has no `server` key, so it is not written back with one. */
  server: Type.Optional(Type.Intersect([server, mapOf(Type.Unknown())])),
  /** Keys we do not know are kept as they were, so other tools' settings survive our writes. */
  extra: mapOf(Type.Unknown()),
});
