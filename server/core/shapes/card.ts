import { Type, type Static } from '@sinclair/typebox';
import { PRIORITIES } from './vocabulary';
import { componentNameOf, named } from './names';
import { LIST_DEFAULTS, type DefaultedField } from './listDefaults';
import {
  AgentSessionSchema,
  CardFormSchema,
  CardStateSchema,
  ChecklistItemSchema,
  ChecklistProgressSchema,
  ClaimSchema,
  CommentSchema,
  SubCardCountSchema,
} from './cardParts';
import { choice, count, flag, mapOf, nullableText, openObject, orNull, text, textList, textMap, time } from './parts';

/** A priority, with what it means in this place. */
export const priorityOf = (description = 'critical, high, medium or low') => choice(PRIORITIES, description);

/** The card read model's fields that every card has, in a list too (the single card adds comments and checklistItems). */
const taskFields = {
  id: text('card id: <slug of the title>-<UTC date>[-N]; never changes'),
  boardId: text('board the card is on'),
  title: text('the first # heading of content'),
  content: text('Markdown, ending with a newline'),
  status: text('column id, or "deleted" for a soft-deleted card'),
  priority: priorityOf(),
  assignee: nullableText('assignee, or null'),
  dueDate: nullableText('ISO 8601 date or time, or null'),
  labels: textList('label names'),
  metadata: openObject('arbitrary key/value data, searchable with meta.<field>'),
  forms: Type.Array(CardFormSchema, { description: 'forms the card offers' }),
  formData: mapOf(openObject('submitted data of one form'), 'form id to its submitted data'),
  actions: Type.Union([Type.Array(Type.String()), textMap('action key to title')], {
    description: 'card actions: keys, or key to title',
  }),
  attachments: textList('attached file names'),
  commentCount: count('number of comments'),
  created: time('creation time'),
  modified: time('last change'),
  completedAt: nullableText('when the card entered the last column of its board (ISO 8601), or null'),
  checklist: orNull(ChecklistProgressSchema, 'checklist progress, or null when the content has no task list items'),
  blockedBy: textList('whole ids of the cards (any board) this one waits for'),
  parent: nullableText('whole id of the card (same board) this one is a sub-card of, or null'),
  relatesTo: textList('whole ids of the cards (any board) this card declares itself related to (stored on it)'),
  duplicateOf: textList('whole ids of the cards (any board) this one duplicates'),
  archivedAt: nullableText('when the card was archived (ISO 8601), or null; an archived card keeps its status'),
  position: count('zero-based index in its column (for an archived card: in the archive)'),
  filePath: Type.Optional(text('the card file, relative to the workspace; only with file storage')),
  cardState: CardStateSchema,
  blocks: textList('ids of the cards whose blockedBy names this one (derived)'),
  blocked: flag('true while a blocker is neither in the last column of its board nor archived'),
  openBlockers: count(
    'how many of blockedBy are still open (neither in the last column of their board nor archived); 0 when not blocked',
  ),
  children: SubCardCountSchema,
  related: textList(
    'every card related to this one either way: its own relatesTo, then the cards whose relatesTo names it (derived)',
  ),
  duplicates: textList('ids of the cards whose duplicateOf names this one (derived)'),
  claim: orNull(
    ClaimSchema,
    'the agent working on the card under a running lease, or null (also once the lease has run out)',
  ),
  session: orNull(
    AgentSessionSchema,
    'the last progress report of an agent (PUT /tasks/{id}/session), or null; it outlives the claim',
  ),
};

/** The empty defaults, each checked here against its field's type (listDefaults.ts imports nothing). */
const TYPED_DEFAULTS: { readonly [K in DefaultedField]: Readonly<ListedTask[K]> } = LIST_DEFAULTS;

/**
 * The fields with each one's empty default (core/shapes/listDefaults) as its `default`. A named
 * shape is wrapped rather than copied, so the document still refers to it by name.
 */
function withListDefaults(fields: typeof taskFields): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  for (const [field, value] of Object.entries(TYPED_DEFAULTS)) {
    const schema = fields[field as DefaultedField];
    out[field] = componentNameOf(schema) ? { allOf: [schema], default: value } : { ...schema, default: value };
  }
  return out;
}

/** A single card, as its own route answers: comments and task list items included. */
export const TaskSchema = named(
  'Task',
  Type.Object(
    {
      ...taskFields,
      comments: Type.Array(CommentSchema, { description: 'every comment, in stored order' }),
      checklistItems: Type.Array(ChecklistItemSchema, { description: 'every task list item of the content, in order' }),
    },
    { description: 'a card: the task read model' },
  ),
);

export type Task = Static<typeof TaskSchema>;
/** A card in a list: the single card's fields without comments and task list items. */
export type ListedTask = Omit<Task, 'comments' | 'checklistItems'>;

/**
 * A card in a list. Written as plain JSON schema over the same field schemas (not `Type.Partial`,
 * which would copy each one): a copy of a named shape would lose its name, so the document would
 * spell out CardState here instead of referring to it.
 */
export const TaskListEntrySchema = named(
  'TaskListEntry',
  Type.Unsafe<Partial<ListedTask> & Pick<ListedTask, 'id'>>({
    type: 'object',
    description:
      'a card in a list: the read model without comments (commentCount counts them). Every field is present unless the request narrows them with `fields`, or asks `compact=true`, which leaves out each field that holds its `default`; `id` always is.',
    properties: withListDefaults(taskFields),
    required: ['id'],
  }),
);

/** What a form submission answers: the data as stored, and the card after it. */
export const FormSubmissionSchema = named(
  'FormSubmission',
  Type.Object({
    formId: text('the form the data is stored under'),
    data: openObject('the stored data: defaults, earlier data, matching metadata and the submitted data merged'),
    task: TaskSchema,
  }),
);
