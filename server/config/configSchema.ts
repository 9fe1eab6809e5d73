import { DEFAULT_SETTINGS } from '../core/defaults';
import { BOARD_OR_COLUMN_ID } from '../core/ids';
import { BACKGROUND_MODES, BACKGROUND_PRESETS, PRIORITIES, WIP_POLICIES } from '../core/model';
import { RESERVED_STATUS_IDS } from '../core/cardPlace';

type Schema = Record<string, unknown>;

/**
 * `.kanban.json` as a JSON Schema, for editors (VS Code's `jsonValidation`: completion and errors
 * while editing by hand). It is built from the same constants `parseConfig` checks against (ids,
 * priorities, backgrounds, the settings and their defaults), and the build writes it to
 * dist/kanban.schema.json, so the file and the service cannot drift apart; a unit test runs both
 * over the same documents. Unknown keys are allowed, as the service keeps them.
 */
export function kanbanConfigSchema(): Schema {
  const slug = { type: 'string', pattern: BOARD_OR_COLUMN_ID.source };
  const priority = { enum: [...PRIORITIES], description: 'critical, high, medium or low' };
  const column = {
    type: 'object',
    properties: {
      id: {
        ...slug,
        not: { enum: [...RESERVED_STATUS_IDS] },
        description: `the status stored in card files and the folder name: a-z, 0-9, - and _ (${RESERVED_STATUS_IDS.map((id) => `"${id}"`).join(' and ')} are reserved)`,
      },
      name: { type: 'string', description: 'shown as the column title (defaults to the id)' },
      color: { type: 'string', description: 'CSS color, e.g. #3b82f6' },
      wipLimit: {
        type: 'integer',
        minimum: 1,
        description:
          'soft WIP limit: the header shows count/limit and turns to a warning colour when over (archived cards not counted)',
      },
    },
    required: ['id'],
  };
  const columns = { type: 'array', items: column, description: 'the columns, left to right' };
  const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
  const idList = { type: 'array', items: { type: 'string' } };
  const boardFields = {
    name: { type: 'string', description: 'shown in the board switcher (defaults to the id)' },
    description: { type: 'string' },
    columns,
    defaultStatus: { type: 'string', description: 'column of new cards on this board (else settings.defaultStatus)' },
    startStatus: {
      ...slug,
      description:
        'column `kanban start` moves a card to; must be a column of this board (else the first in-progress, doing, wip, started or active column, else the second column)',
    },
    pickFrom: {
      type: 'array',
      items: slug,
      minItems: 1,
      uniqueItems: true,
      description:
        'columns `kanban pick` (POST /api/tasks/pick) takes cards from; each must be a column of this board (else every column before the start column)',
    },
    defaultPriority: {
      ...priority,
      description: 'priority of new cards on this board (else settings.defaultPriority)',
    },
    actions: { ...stringMap, description: 'board actions: key -> title, announced as board.action.triggered' },
    minimizedColumnIds: { ...idList, description: 'columns shown collapsed' },
    wipPolicy: {
      enum: [...WIP_POLICIES],
      default: 'warn',
      description:
        'a move or create into a column at its wipLimit: warn (allowed, with a Warning header and a toast) or block (refused with 409)',
    },
    autoArchiveDays: {
      type: 'integer',
      minimum: 1,
      description: 'archive cards that have stayed this many days in the last column (checked at start and hourly)',
    },
  };
  const board = {
    type: 'object',
    properties: { id: { ...slug, description: 'folder name under .kanban/boards/' }, ...boardFields },
    required: ['id'],
  };
  const boardInMap = { type: 'object', properties: boardFields };
  const plugin = {
    type: 'object',
    properties: { provider: { type: 'string' }, options: { type: 'object' } },
    required: ['provider'],
  };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Repo Kanban configuration (.kanban.json)',
    type: 'object',
    properties: {
      version: { enum: [1, 2], description: '2 is the current layout; 1 is read and upgraded on the next change' },
      defaultBoard: { type: 'string', description: 'id of the board unscoped routes act on; must be one of boards' },
      boards: {
        anyOf: [
          { type: 'array', items: board },
          { type: 'object', additionalProperties: boardInMap, description: 'older layout: boards keyed by id' },
        ],
      },
      settings: settingsSchema(),
      labels: {
        type: 'object',
        description: 'label name -> color and optional group',
        additionalProperties: {
          type: 'object',
          properties: { color: { type: 'string' }, group: { type: 'string' } },
          required: ['color'],
        },
      },
      forms: {
        type: 'object',
        description: 'form id -> JSON Schema and default data',
        additionalProperties: {
          type: 'object',
          properties: {
            schema: { type: 'object' },
            data: { type: 'object' },
            name: { type: 'string' },
            description: { type: 'string' },
          },
          required: ['schema'],
        },
      },
      webhooks: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            url: { type: 'string' },
            events: { ...idList, description: 'event names, "prefix.*" or "*"' },
            secret: { type: 'string', description: 'write ${ENV_NAME}: a literal secret is moved out of this file' },
            active: { type: 'boolean' },
          },
          required: ['id', 'url'],
        },
      },
      views: {
        type: 'array',
        description: 'saved views: a named filter, sort and layout of one board (GET /api/views)',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' },
            name: { type: 'string' },
            board: { type: 'string', description: 'id of the board the view shows' },
            layout: { enum: ['board', 'table'] },
            filter: {
              type: 'object',
              description:
                'list-route query parameters: q, status, priority, assignee, label, labelGroup, due, ready, meta.<path>, ...',
              additionalProperties: { type: ['string', 'boolean', 'number'] },
            },
            sort: { type: 'string', description: 'a list-route sort value such as -priority; "" for the board order' },
            groupBy: {
              type: ['string', 'null'],
              description: 'assignee, priority, labelGroup:<group> or metadata:<key path>',
            },
          },
          required: ['id', 'board'],
        },
      },
      plugins: {
        type: 'object',
        description: 'card.storage, attachment.storage, card.state, auth.identity',
        additionalProperties: plugin,
      },
      server: {
        type: 'object',
        properties: {
          allowedOrigins: {
            ...idList,
            description: 'web origins whose pages may change the board, e.g. "https://example.com"',
          },
        },
      },
      // The version 1 layout: one board at the top level, storage entries with `config`.
      columns: { ...columns, description: 'version 1: the columns of the one board' },
      defaultStatus: { type: 'string', description: 'version 1' },
      defaultPriority: { ...priority, description: 'version 1' },
      actions: { ...stringMap, description: 'version 1' },
      minimizedColumnIds: { ...idList, description: 'version 1' },
      storage: {
        type: 'object',
        description: 'version 1: use plugins',
        additionalProperties: {
          type: 'object',
          properties: { provider: { type: 'string' }, config: { type: 'object' } },
          required: ['provider'],
        },
      },
    },
  };
}

/** Every setting with its type and default; settings this version does not know are ignored, as by the service. */
function settingsSchema(): Schema {
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
  return { type: 'object', properties };
}
