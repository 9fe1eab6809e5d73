import { SESSION_STATES } from '../core/sessions';
import { BACKGROUND_MODES, BACKGROUND_PRESETS, PRIORITIES, WIP_POLICIES } from '../core/model';
import { AGENT_NAME_RULE, DEFAULT_CLAIM_SECONDS, MAX_CLAIM_SECONDS } from '../core/claims';
import type { JsonSchema } from './route';

/** Request body schemas: they validate requests, type handlers and feed the OpenAPI document. */

const str = (description?: string): JsonSchema => ({ type: 'string', ...(description ? { description } : {}) });
const bool = (description?: string): JsonSchema => ({ type: 'boolean', ...(description ? { description } : {}) });

export function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

const stringMap: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
const stringList: JsonSchema = { type: 'array', items: { type: 'string' } };

const wipLimit: JsonSchema = {
  type: ['integer', 'null'],
  minimum: 1,
  description: 'soft WIP limit (cards, archived ones not counted); null for none',
};

export const columnSchema = object(
  {
    id: str('column id: a-z, 0-9, - and _'),
    name: str('display name'),
    color: str('hex color, default #6b7280'),
    wipLimit,
  },
  ['id', 'name'],
);

export const boardCreateSchema = object(
  {
    id: str('board id: a-z, 0-9, - and _'),
    name: str(),
    description: str(),
    columns: { type: 'array', items: columnSchema },
    defaultStatus: str(),
    defaultPriority: { type: 'string', enum: PRIORITIES },
    actions: stringMap,
  },
  ['id', 'name'],
);

export const boardUpdateSchema = object({
  name: str(),
  description: str(),
  columns: { type: 'array', items: columnSchema },
  defaultStatus: str(),
  defaultPriority: { type: 'string', enum: PRIORITIES },
  wipPolicy: {
    type: 'string',
    enum: WIP_POLICIES,
    description: 'a move or create into a full column: warn (allowed, Warning header) or block (409)',
  },
  autoArchiveDays: {
    type: ['integer', 'null'],
    minimum: 1,
    description: 'archive cards that stayed this many days in the last column; null turns it off',
  },
});

export const actionsMapSchema = object({ actions: stringMap }, ['actions']);
export const actionTitleSchema = object({ title: str() }, ['title']);

export const columnUpdateSchema = object({ name: str(), color: str(), wipLimit });
export const columnIdsSchema = object({ columnIds: stringList }, ['columnIds']);

/** Free-form data: any fields (said out loud, so generated client types accept them). */
const freeForm = (description: string): JsonSchema => ({ type: 'object', additionalProperties: true, description });

/** Two whole shapes, so a generated client type knows the fields of each (an inline form may also carry a name, so anyOf). */
const formRefOrInline: JsonSchema = {
  description: 'a workspace form reference {name, data?} or an inline form definition {id?, name?, schema, data?}',
  anyOf: [
    object(
      {
        id: str('form id (default: the name)'),
        name: str('a form defined in .kanban.json'),
        data: freeForm('default data'),
      },
      ['name'],
    ),
    object(
      {
        id: str('form id (default: the name slugified, else form-<n>)'),
        name: str('display name'),
        schema: freeForm('JSON schema of the form data'),
        data: freeForm('default data'),
      },
      ['schema'],
    ),
  ],
};

const taskFields: Record<string, JsonSchema> = {
  content: str('Markdown; the title is the first # heading'),
  status: str('a column id of the board'),
  priority: { type: 'string', enum: PRIORITIES },
  assignee: { type: ['string', 'null'] },
  dueDate: { type: ['string', 'null'], description: 'ISO 8601 date or date-time' },
  labels: stringList,
  metadata: freeForm('arbitrary key/value data, searchable with meta.<field>'),
  forms: { type: 'array', items: formRefOrInline },
  formData: {
    type: 'object',
    additionalProperties: freeForm('submitted data of one form'),
    description: 'form id to its data',
  },
  actions: { oneOf: [stringList, stringMap] },
  blockedBy: {
    type: ['array', 'null'],
    items: { type: 'string' },
    description:
      'ids of the cards (any board) this one waits for; partial ids are resolved to whole ones on write; null or [] clears. A cycle or an unknown id is a 400',
  },
};

/**
 * A new card's text is either `content` (Markdown whose first # heading is the title) or `title`
 * with an optional `body`, stored as `# <title>\n\n<body>`; never both. That rule is checked by
 * createTask, not here: as an `anyOf`, ajv would report it before an unknown field, which is the
 * more useful thing to name.
 */
export const taskCreateSchema: JsonSchema = {
  ...object({
    ...taskFields,
    title: str('the title, one line: instead of content, stored as "# <title>", then body under it'),
    body: str('Markdown under the title (only with title)'),
  }),
  description: 'content (Markdown starting with a # heading), or title with an optional body; not both',
};
export const taskUpdateSchema = object(taskFields);

/**
 * A move may also set the card fields a board groups its rows (swimlanes) by, so a drop across
 * lanes and columns at any place is one write and one event: the fields and the place are accepted
 * or refused together.
 */
export const MOVE_FIELDS = ['priority', 'assignee', 'labels', 'metadata'] as const;

export const moveSchema = object(
  {
    status: str('target column'),
    position: { type: 'integer', minimum: 0, description: 'zero-based, default 0' },
    ...Object.fromEntries(
      MOVE_FIELDS.map((name) => [
        name,
        {
          ...taskFields[name],
          description: `optional: also set ${name} in the same write (a drop into another swimlane)`,
        },
      ]),
    ),
  },
  ['status'],
);

export const transferSchema = object({ targetStatus: str('column on the destination board') });

export const settingsSchema = object({
  showPriorityBadges: bool(),
  showAssignee: bool(),
  showDueDate: bool(),
  showLabels: bool(),
  showFileName: bool(),
  compactMode: bool(),
  showDeletedColumn: bool(),
  defaultPriority: { type: 'string', enum: PRIORITIES },
  defaultStatus: str(),
  boardBackgroundMode: { type: 'string', enum: BACKGROUND_MODES },
  boardBackgroundPreset: { type: 'string', enum: BACKGROUND_PRESETS },
});

export const labelSchema = object({ color: str('hex color'), group: str() }, ['color']);
export const labelRenameSchema = object({ newName: str() }, ['newName']);

export const commentCreateSchema = object({ author: str(), content: str('Markdown') }, ['author', 'content']);
export const commentUpdateSchema = object({ content: str('Markdown') }, ['content']);

export const logSchema = object(
  {
    text: str('Markdown'),
    source: str('default "default"'),
    object: freeForm('structured data, stored as sent'),
    timestamp: str('ISO 8601; generated when omitted'),
  },
  ['text'],
);

export const uploadSchema = object(
  {
    files: {
      type: 'array',
      items: object({ name: str('file name, no path'), data: str('base64 content'), contentType: str('MIME type') }, [
        'name',
        'data',
      ]),
    },
  },
  ['files'],
);

export const formSubmitSchema = object({ data: freeForm('the form data') }, ['data']);
export const readSchema = object({
  readThrough: object({ at: str('ISO 8601: everything up to this moment counts as read') }, ['at']),
});

export const checklistAddSchema = object({ text: str('the item text, one line') }, ['text']);
export const checklistEditSchema = object({
  done: bool('tick (true) or untick (false)'),
  text: str('new item text, one line'),
});

const agentField = str(`the agent: ${AGENT_NAME_RULE}; else the X-Kanban-Agent header (if both, they must agree)`);
const ttlSeconds: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_CLAIM_SECONDS,
  description: `length of the lease in seconds, default ${DEFAULT_CLAIM_SECONDS} (at most ${MAX_CLAIM_SECONDS}, a day)`,
};

export const claimSchema = object({ agent: agentField, ttlSeconds });

export const sessionReportSchema = object(
  {
    agent: agentField,
    state: {
      type: 'string',
      enum: [...SESSION_STATES],
      description: `where the agent is: ${SESSION_STATES.join(', ')} (complete releases the claim)`,
    },
    note: str('a line on what the agent is doing or needs (logged on the card with a change of state)'),
    url: str('a link to follow the work: a pull request, a CI run, a log'),
    ttlSeconds: {
      ...ttlSeconds,
      description: `the lease to renew the claim for; default: the running claim's, else ${DEFAULT_CLAIM_SECONDS}`,
    },
  },
  ['state'],
);

export const pickSchema = object({
  agent: agentField,
  board: str("board to pick from (default: the path's board, else the default board)"),
  status: str("pick only from this column (default: the board's pickFrom, else every column before its start column)"),
  labels: { ...stringList, description: 'only cards carrying every one of these labels' },
  assignee: str('only cards assigned to this name (case-insensitive)'),
  priority: { type: 'string', enum: PRIORITIES, description: 'only cards of this priority' },
  moveTo: str(
    'move the picked card to this column (events and WIP limits as any move); a refused move gives the claim back',
  ),
  ttlSeconds,
});
