import type { JsonSchema } from './route';
import { anyObject, fields, flag, list, map, named, nullable, text, time } from './schemaParts';
import { gitBranchSchema, gitCommitSchema, gitLinksSchema } from '../core/gitLinkModel';
import { boardContextSchema, contextCardSchema } from '../core/boardContext';
import {
  ActionMapSchema,
  BoardSchema,
  BoardSummarySchema,
  ColumnIdListSchema,
  ColumnListSchema,
  ColumnSchema,
  LabelUsageListSchema,
  LabelsSchema,
  SettingsSchema,
} from '../core/shapes/board';
import { TaskListEntrySchema, TaskSchema } from '../core/shapes/card';
import { ChecklistItemSchema, CommentSchema } from '../core/shapes/cardParts';

/**
 * Schemas of the success `data` of the routes (the status routes' are in statusSchemas.ts, the
 * logs', webhooks', migration's and import's in adminSchemas.ts). Each route's `response` is a
 * whole, plain JSON schema (no `$ref`), so a host can use it alone (the MCP tools' output schemas);
 * the OpenAPI document turns every named schema into a `components.schemas` entry and refers to it.
 * The read models (cards, boards, settings, labels) are the shapes of core/shapes, whose types the
 * service uses; this file gives them the names the routes import.
 *
 * `required` lists only fields that are always present. Objects are open (JSON Schema's default),
 * so a client written today keeps working when a field is added; the tests hold every real answer
 * to these schemas with undocumented fields refused, except where `additionalProperties: true`
 * says that more fields are expected (provider details, hand-written config).
 */

export {
  importResultSchema,
  invalidFileSchema,
  logEntryListSchema,
  logEntrySchema,
  migrationResultSchema,
  resolvedPathSchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookListSchema,
  webhookSchema,
} from './adminSchemas';

// Boards and columns

export const columnViewSchema = ColumnSchema;
export const columnListSchema = ColumnListSchema;
export const columnIdListSchema = ColumnIdListSchema;
export const actionMapSchema = ActionMapSchema;
export const boardSummarySchema = BoardSummarySchema;
export const boardSummaryListSchema = list(boardSummarySchema, 'boards in .kanban.json order');
export const boardSchema = BoardSchema;

/** `{deleted: <id>}`: what a delete answers with. */
export const deletedSchema = named('Deleted', fields({ deleted: text('id of what was deleted') }));
export const clearedSchema = named('Cleared', fields({ cleared: { const: true, description: 'always true' } }));

// Tasks

export const commentSchema = CommentSchema;
export const checklistItemSchema = ChecklistItemSchema;
export const taskSchema = TaskSchema;
export const taskListEntrySchema = TaskListEntrySchema;
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
        { id: text('board id'), name: text('display name'), columns: ColumnListSchema },
        'the board the cards come from',
      ),
      exported: time('when the file was made'),
      cards: list(TaskSchema, "the board's live cards (not deleted), in board order, comments included"),
    },
    'a board exported as JSON',
  ),
);

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
    task: TaskSchema,
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

export const settingsViewSchema = SettingsSchema;
export const labelsSchema = LabelsSchema;
export const labelUsageSchema = LabelUsageListSchema;
