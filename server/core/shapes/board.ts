import { Type } from '@sinclair/typebox';
import { BACKGROUND_MODES, BACKGROUND_PRESETS, WIP_POLICIES } from './vocabulary';
import { TaskSchema, priorityOf } from './card';
import { named } from './names';
import { choice, count, flag, mapOf, nullableInteger, nullableText, text, textList, textMap, time } from './parts';

/** Boards, columns and the workspace's display settings and labels, as the API shows them. */

export const ColumnSchema = named(
  'Column',
  Type.Object({
    id: text('column id; also the status of the cards in it'),
    name: text('display name'),
    color: text('hex color such as #6b7280'),
    wipLimit: Type.Optional(
      Type.Integer({ minimum: 1, description: 'soft WIP limit; absent when the column has none' }),
    ),
  }),
);

export const ColumnListSchema = Type.Array(ColumnSchema, { description: 'columns in board order' });
export const ColumnIdListSchema = textList('column ids');

export const ActionMapSchema = named('ActionMap', textMap('action key to its title'));

export const BoardSummarySchema = named(
  'BoardSummary',
  Type.Object({
    id: text('board id'),
    name: text('display name'),
    description: nullableText('description, or null'),
    isDefault: flag('whether the unscoped /tasks and /columns routes act on this board'),
    taskCount: count('cards on the board, soft-deleted and archived ones excluded'),
    columns: ColumnListSchema,
  }),
);

export const BoardSchema = named(
  'Board',
  Type.Object({
    id: text('board id'),
    name: text('display name'),
    description: nullableText('description, or null'),
    columns: ColumnListSchema,
    defaultStatus: nullableText('status a new card gets (the effective value); null while the board has no columns'),
    defaultPriority: priorityOf('priority a new card gets (the effective value)'),
    actions: ActionMapSchema,
    minimizedColumnIds: ColumnIdListSchema,
    wipPolicy: choice(
      WIP_POLICIES,
      'what a move or create into a column at its WIP limit does: warn (default) or block (409)',
    ),
    autoArchiveDays: nullableInteger('cards that stayed this many days in the last column are archived; null when off'),
  }),
);

export const SettingsSchema = named(
  'Settings',
  Type.Object(
    {
      showPriorityBadges: flag('show priority badges on cards'),
      showAssignee: flag('show the assignee on cards'),
      showDueDate: flag('show the due date on cards'),
      showLabels: flag('show labels on cards'),
      showFileName: flag('show the card file name'),
      compactMode: flag('smaller cards'),
      showDeletedColumn: flag('show the column of soft-deleted cards'),
      defaultPriority: priorityOf(),
      defaultStatus: text('status a new card gets when its board names none'),
      boardBackgroundMode: choice(BACKGROUND_MODES, 'board background style'),
      boardBackgroundPreset: choice(BACKGROUND_PRESETS, 'board background colors'),
    },
    { description: 'workspace display settings' },
  ),
);

export const LabelDefinitionSchema = Type.Object(
  { color: text('hex color'), group: Type.Optional(text('group name; absent when ungrouped')) },
  { description: 'a label definition' },
);

export const LabelsSchema = named('Labels', mapOf(LabelDefinitionSchema, 'label name to its definition'));

export const LabelUsageListSchema = named(
  'LabelUsage',
  Type.Array(
    Type.Object(
      {
        name: text('label name'),
        defined: flag('whether .kanban.json defines it; false: only cards carry it'),
        color: nullableText('hex color, or null when not defined'),
        group: nullableText('group name, or null when ungrouped or not defined'),
        cards: count('how many cards (any board, deleted and archived included) carry it'),
      },
      { description: 'a label and its use' },
    ),
    { description: 'defined labels in their order, then labels only cards carry, by name' },
  ),
);

/** GET /export?format=json: the file's body (no envelope: it is a file to keep). */
export const BoardExportSchema = named(
  'BoardExport',
  Type.Object(
    {
      board: Type.Object(
        { id: text('board id'), name: text('display name'), columns: ColumnListSchema },
        { description: 'the board the cards come from' },
      ),
      exported: time('when the file was made'),
      cards: Type.Array(TaskSchema, {
        description: "the board's live cards (not deleted), in board order, comments included",
      }),
    },
    { description: 'a board exported as JSON' },
  ),
);
