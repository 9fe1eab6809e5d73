import { BACKGROUND_MODES, BACKGROUND_PRESETS, PRIORITIES, WIP_POLICIES } from '../core/model';
import type { JsonSchema } from './route';
import { SESSION_STATES } from '../core/sessions';
import { anyObject, count, fields, flag, list, map, named, nullable, text, time } from './schemaParts';
import { gitBranchSchema, gitCommitSchema, gitLinksSchema } from '../core/gitLinkModel';
import { boardContextSchema, contextCardSchema } from '../core/boardContext';

/**
 * Schemas of the success `data` of the routes (the status routes' are in statusSchemas.ts). Each
 * route's `response` is a whole, plain JSON schema (no `$ref`), so a host can use it alone (the MCP
 * tools' output schemas); the OpenAPI document turns every schema registered with `named` into a
 * `components.schemas` entry and refers to it.
 *
 * `required` lists only fields that are always present. Objects are open (JSON Schema's default),
 * so a client written today keeps working when a field is added; the tests hold every real answer
 * to these schemas with undocumented fields refused, except where `additionalProperties: true`
 * says that more fields are expected (provider details, hand-written config).
 */

const priority: JsonSchema = { type: 'string', enum: PRIORITIES, description: 'critical, high, medium or low' };

// Boards and columns

export const columnViewSchema = named(
  'Column',
  fields(
    {
      id: text('column id; also the status of the cards in it'),
      name: text('display name'),
      color: text('hex color such as #6b7280'),
      wipLimit: { type: 'integer', minimum: 1, description: 'soft WIP limit; absent when the column has none' },
    },
    undefined,
    ['wipLimit'],
  ),
);

export const columnListSchema = list(columnViewSchema, 'columns in board order');
export const columnIdListSchema = list({ type: 'string' }, 'column ids');

export const actionMapSchema = named('ActionMap', map({ type: 'string' }, 'action key to its title'));

export const boardSummarySchema = named(
  'BoardSummary',
  fields({
    id: text('board id'),
    name: text('display name'),
    description: nullable('string', 'description, or null'),
    isDefault: flag('whether the unscoped /tasks and /columns routes act on this board'),
    taskCount: count('cards on the board, soft-deleted and archived ones excluded'),
    columns: columnListSchema,
  }),
);

export const boardSummaryListSchema = list(boardSummarySchema, 'boards in .kanban.json order');

export const boardSchema = named(
  'Board',
  fields({
    id: text('board id'),
    name: text('display name'),
    description: nullable('string', 'description, or null'),
    columns: columnListSchema,
    defaultStatus: nullable(
      'string',
      'status a new card gets (the effective value); null while the board has no columns',
    ),
    defaultPriority: { ...priority, description: 'priority a new card gets (the effective value)' },
    actions: actionMapSchema,
    minimizedColumnIds: columnIdListSchema,
    wipPolicy: {
      type: 'string',
      enum: WIP_POLICIES,
      description: 'what a move or create into a column at its WIP limit does: warn (default) or block (409)',
    },
    autoArchiveDays: nullable(
      'integer',
      'cards that stayed this many days in the last column are archived; null when off',
    ),
  }),
);

/** `{deleted: <id>}`: what a delete answers with. */
export const deletedSchema = named('Deleted', fields({ deleted: text('id of what was deleted') }));
export const clearedSchema = named('Cleared', fields({ cleared: { const: true, description: 'always true' } }));

// Tasks

export const commentSchema = named(
  'Comment',
  fields(
    {
      id: text('comment id: c_ and 10 base36 characters'),
      author: text('who wrote it'),
      content: text('Markdown'),
      created: time('when it was written'),
      modified: time('when it was last edited; absent when never edited'),
    },
    undefined,
    ['modified'],
  ),
);

/** Two whole shapes, so a generated client type knows the fields of each. */
const cardForm: JsonSchema = {
  description: 'a workspace form reference {name} or an inline form {id?, name?, schema, data?}, as stored on the card',
  anyOf: [
    fields(
      { id: text('form id'), name: text('the workspace form it refers to'), data: anyObject('default data') },
      'a reference to a form of .kanban.json',
      ['id', 'data'],
    ),
    fields(
      {
        id: text('form id'),
        name: text('form name'),
        schema: anyObject('JSON schema of the form data'),
        data: anyObject('default data'),
      },
      'an inline form',
      ['id', 'name', 'data'],
    ),
  ],
};

const cardState = named(
  'CardState',
  fields(
    {
      unread: flag('someone else acted on the card after the caller last read it'),
      open: flag('the caller has opened the card'),
    },
    "the caller's own state of the card",
  ),
);

const checklistProgress = named(
  'ChecklistProgress',
  fields(
    {
      done: count('ticked items'),
      total: count('all items'),
    },
    'task list items (- [ ] / - [x]) of the content outside code blocks',
  ),
);

export const checklistItemSchema = named(
  'ChecklistItem',
  fields({
    index: count('zero-based, in content order: what the checklist routes take'),
    text: text('the item text after the box'),
    done: flag('ticked ([x])'),
  }),
);

const claimSchema = named(
  'Claim',
  fields(
    {
      agent: text('the agent holding the card (X-Kanban-Agent)'),
      since: time('when the agent claimed it (a renewal keeps this)'),
      until: time('when the lease ends unless renewed; the card is free from then on'),
    },
    "an agent's lease on the card",
  ),
);

const sessionSchema = named(
  'AgentSession',
  fields(
    {
      agent: text('the agent that reported'),
      state: { type: 'string', enum: [...SESSION_STATES], description: SESSION_STATES.join(', ') },
      note: nullable('string', 'what the agent said with its report, or null'),
      url: nullable('string', 'a link the agent gave (a pull request, a log), or null'),
      updatedAt: time('when the agent last reported'),
      stale: flag('true once the agent has been silent longer than the lease its last report renewed'),
    },
    'what the agent working on the card last reported',
  ),
);

/** The read model's fields, without `comments`. */
const taskFields: Record<string, JsonSchema> = {
  id: text('card id: <slug of the title>-<UTC date>[-N]; never changes'),
  boardId: text('board the card is on'),
  title: text('the first # heading of content'),
  content: text('Markdown, ending with a newline'),
  status: text('column id, or "deleted" for a soft-deleted card'),
  priority,
  assignee: nullable('string', 'assignee, or null'),
  dueDate: nullable('string', 'ISO 8601 date or time, or null'),
  labels: list({ type: 'string' }, 'label names'),
  metadata: anyObject('arbitrary key/value data, searchable with meta.<field>'),
  forms: list(cardForm, 'forms the card offers'),
  formData: map(anyObject('submitted data of one form'), 'form id to its submitted data'),
  actions: {
    anyOf: [list({ type: 'string' }), map({ type: 'string' }, 'action key to title')],
    description: 'card actions: keys, or key to title',
  },
  attachments: list({ type: 'string' }, 'attached file names'),
  commentCount: count('number of comments'),
  created: time('creation time'),
  modified: time('last change'),
  completedAt: nullable('string', 'when the card entered the last column of its board (ISO 8601), or null'),
  checklist: {
    anyOf: [checklistProgress, { type: 'null' }],
    description: 'checklist progress, or null when the content has no task list items',
  },
  blockedBy: list({ type: 'string' }, 'whole ids of the cards (any board) this one waits for'),
  archivedAt: nullable('string', 'when the card was archived (ISO 8601), or null; an archived card keeps its status'),
  position: count('zero-based index in its column (for an archived card: in the archive)'),
  filePath: text('the card file, relative to the workspace; only with file storage'),
  cardState,
  blocks: list({ type: 'string' }, 'ids of the cards whose blockedBy names this one (derived)'),
  blocked: flag('true while a blocker is neither in the last column of its board nor archived'),
  openBlockers: count(
    'how many of blockedBy are still open (neither in the last column of their board nor archived); 0 when not blocked',
  ),
  claim: {
    anyOf: [claimSchema, { type: 'null' }],
    description: 'the agent working on the card under a running lease, or null (also once the lease has run out)',
  },
  session: {
    anyOf: [sessionSchema, { type: 'null' }],
    description: 'the last progress report of an agent (PUT /tasks/{id}/session), or null; it outlives the claim',
  },
};

export const taskSchema = named(
  'Task',
  fields(
    {
      ...taskFields,
      comments: list(commentSchema, 'every comment, in stored order'),
      checklistItems: list(checklistItemSchema, 'every task list item of the content, in order'),
    },
    'a card: the task read model',
    ['filePath'],
  ),
);

export const taskListEntrySchema = named('TaskListEntry', {
  type: 'object',
  description:
    'a card in a list: the read model without comments (commentCount counts them). Every field is present unless the request narrows them with `fields`; `id` always is.',
  properties: taskFields,
  required: ['id'],
});

export const taskListSchema = list(
  taskListEntrySchema,
  'cards in column order, then position (fuzzy search: by score)',
);
export const activeTaskSchema: JsonSchema = {
  anyOf: [taskSchema, { type: 'null' }],
  description: 'the card last opened in a board UI of this board, or null',
};
export const commentListSchema = list(commentSchema, 'comments in stored order');

// Git links: the shapes live beside their rules (core/gitLinkModel.ts), which the service types from them.
named('GitCommit', gitCommitSchema);
named('GitBranch', gitBranchSchema);
export const gitLinksResponseSchema = named('GitLinks', gitLinksSchema);

// The board context: the shapes live beside their rules (core/boardContext.ts), which the service types from them.
named('ContextCard', contextCardSchema);
export const boardContextResponseSchema = named('BoardContext', boardContextSchema);

/** GET /export?format=json: the file's body (no envelope: it is a file to keep). */
export const exportFileSchema = named(
  'BoardExport',
  fields(
    {
      board: fields(
        { id: text('board id'), name: text('display name'), columns: columnListSchema },
        'the board the cards come from',
      ),
      exported: time('when the file was made'),
      cards: list(taskSchema, "the board's live cards (not deleted), in board order, comments included"),
    },
    'a board exported as JSON',
  ),
);

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

export const cardStateResultSchema = named(
  'CardStateChange',
  fields(
    {
      cardId: text('card id'),
      boardId: text('board id'),
      actor: text('whose state this is'),
      unread: flag('someone else acted on the card after the actor read it'),
      open: flag('the actor has opened the card'),
      openedAt: nullable('string', 'when the actor last opened the card (ISO 8601), or null'),
      readThrough: {
        anyOf: [fields({ at: time('everything up to this moment counts as read') }), { type: 'null' }],
        description: 'the read cursor, or null',
      },
    },
    "the actor's state of the card after the change",
  ),
);

export const formSubmissionSchema = named(
  'FormSubmission',
  fields({
    formId: text('the form the data is stored under'),
    data: anyObject('the stored data: defaults, earlier data, matching metadata and the submitted data merged'),
    task: taskSchema,
  }),
);

export const formDefinitionsSchema = map(
  {
    type: 'object',
    additionalProperties: true,
    properties: {
      schema: anyObject('JSON schema of the form data'),
      name: text('display name'),
      data: anyObject('default data'),
      description: text('what the form is for'),
    },
    required: ['schema'],
    description: 'a form definition as written in .kanban.json',
  },
  'form id to its definition',
);

// Workspace

export const settingsViewSchema = named(
  'Settings',
  fields(
    {
      showPriorityBadges: flag('show priority badges on cards'),
      showAssignee: flag('show the assignee on cards'),
      showDueDate: flag('show the due date on cards'),
      showLabels: flag('show labels on cards'),
      showFileName: flag('show the card file name'),
      compactMode: flag('smaller cards'),
      showDeletedColumn: flag('show the column of soft-deleted cards'),
      defaultPriority: priority,
      defaultStatus: text('status a new card gets when its board names none'),
      boardBackgroundMode: { type: 'string', enum: BACKGROUND_MODES, description: 'board background style' },
      boardBackgroundPreset: { type: 'string', enum: BACKGROUND_PRESETS, description: 'board background colors' },
    },
    'workspace display settings',
  ),
);

export const labelsSchema = named(
  'Labels',
  map(
    fields({ color: text('hex color'), group: text('group name; absent when ungrouped') }, 'a label definition', [
      'group',
    ]),
    'label name to its definition',
  ),
);

export const labelUsageSchema = named(
  'LabelUsage',
  list(
    fields(
      {
        name: text('label name'),
        defined: flag('whether .kanban.json defines it; false: only cards carry it'),
        color: nullable('string', 'hex color, or null when not defined'),
        group: nullable('string', 'group name, or null when ungrouped or not defined'),
        cards: count('how many cards (any board, deleted and archived included) carry it'),
      },
      'a label and its use',
    ),
    'defined labels in their order, then labels only cards carry, by name',
  ),
);

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
