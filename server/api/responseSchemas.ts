import type { JsonSchema } from './route';
import { anyObject, fields, list, map, named, text } from './schemaParts';
import {
  ActionMapSchema,
  BoardExportSchema,
  BoardSchema,
  BoardSummarySchema,
  ColumnIdListSchema,
  ColumnListSchema,
  ColumnSchema,
  LabelUsageListSchema,
  LabelsSchema,
  SettingsSchema,
} from '../core/shapes/board';
import { BoardContextSchema } from '../core/shapes/boardContext';
import { FlowMetricsSchema } from '../core/shapes/metrics';
import { GitLinksSchema } from '../core/shapes/gitLinks';
import { FormSubmissionSchema, TaskListEntrySchema, TaskSchema } from '../core/shapes/card';
import { CardStateChangeSchema, ChecklistItemSchema, CommentSchema } from '../core/shapes/cardParts';

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
  sourceFilesSchema,
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

export const gitLinksResponseSchema = GitLinksSchema;
export const boardContextResponseSchema = BoardContextSchema;
export const flowMetricsResponseSchema = FlowMetricsSchema;
export const exportFileSchema = BoardExportSchema;
export const cardStateResultSchema = CardStateChangeSchema;
export const formSubmissionSchema = FormSubmissionSchema;

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
