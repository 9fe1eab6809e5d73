import { Type, type Static } from '@sinclair/typebox';
import { PRIORITIES } from '../vocabulary';
import { choice, closed, openObject, nullableText, text, textList, textMap } from '../parts';

/** Request bodies of the card routes: create, update, move, transfer, restore. */

/** Two whole shapes, so a generated client type knows the fields of each (an inline form may also carry a name, so anyOf). */
const formRefOrInline = Type.Union(
  [
    closed({
      id: Type.Optional(text('form id (default: the name)')),
      name: text('a form defined in .kanban.json'),
      data: Type.Optional(openObject('default data')),
    }),
    closed({
      id: Type.Optional(text('form id (default: the name slugified, else form-<n>)')),
      name: Type.Optional(text('display name')),
      schema: openObject('JSON schema of the form data'),
      data: Type.Optional(openObject('default data')),
    }),
  ],
  { description: 'a workspace form reference {name, data?} or an inline form definition {id?, name?, schema, data?}' },
);

const priority = (description?: string) => choice(PRIORITIES, description);
const assignee = (description?: string) => nullableText(description);
const labels = (description?: string) => textList(description);
const metadata = (description = 'arbitrary key/value data, searchable with meta.<field>') => openObject(description);

/** A list of card ids that null also clears. */
function idListOrNull(description: string) {
  return Type.Unsafe<string[] | null>({ type: ['array', 'null'], items: { type: 'string' }, description });
}

/** The card fields a create or an update may set, every one optional. */
const taskFields = {
  content: Type.Optional(text('Markdown; the title is the first # heading')),
  status: Type.Optional(text('a column id of the board')),
  priority: Type.Optional(priority()),
  assignee: Type.Optional(assignee()),
  dueDate: Type.Optional(nullableText({ description: 'ISO 8601 date or date-time' })),
  labels: Type.Optional(labels()),
  metadata: Type.Optional(metadata()),
  forms: Type.Optional(Type.Array(formRefOrInline)),
  formData: Type.Optional(
    Type.Unsafe<Record<string, Record<string, unknown>>>({
      type: 'object',
      additionalProperties: openObject('submitted data of one form'),
      description: 'form id to its data',
    }),
  ),
  actions: Type.Optional(Type.Unsafe<string[] | Record<string, string>>({ oneOf: [textList(), textMap()] })),
  blockedBy: Type.Optional(
    Type.Unsafe<string[] | null>({
      type: ['array', 'null'],
      items: { type: 'string' },
      description:
        'ids of the cards (any board) this one waits for; partial ids are resolved to whole ones on write; null or [] clears. A cycle or an unknown id is a 400',
    }),
  ),
  parent: Type.Optional(
    Type.Unsafe<string | null>({
      type: ['string', 'null'],
      description:
        'id of the card (same board) this one is a sub-card of; a partial id is resolved on write; null or "" clears. A cycle, the card itself or an unknown id is a 400',
    }),
  ),
  relatesTo: Type.Optional(
    idListOrNull(
      'ids of related cards (any board); the relation shows on both cards (`related`) but is stored on this one; partial ids are resolved on write; null or [] clears',
    ),
  ),
  duplicateOf: Type.Optional(
    idListOrNull(
      'ids of the cards (any board) this one duplicates; each of them lists this one in `duplicates`; partial ids are resolved on write; null or [] clears',
    ),
  ),
};

/**
 * A new card's text is either `content` (Markdown whose first # heading is the title) or `title`
 * with an optional `body`, stored as `# <title>\n\n<body>`; never both. That rule is checked by
 * createTask, not here: as an `anyOf`, ajv would report it before an unknown field, which is the
 * more useful thing to name.
 */
export const TaskCreateBody = closed(
  {
    ...taskFields,
    title: Type.Optional(text('the title, one line: instead of content, stored as "# <title>", then body under it')),
    body: Type.Optional(text('Markdown under the title (only with title)')),
  },
  { description: 'content (Markdown starting with a # heading), or title with an optional body; not both' },
);
export type TaskCreateBody = Static<typeof TaskCreateBody>;

export const TaskUpdateBody = closed(taskFields);
export type TaskUpdateBody = Static<typeof TaskUpdateBody>;

/**
 * A move may also set the card fields a board groups its rows (swimlanes) by, so a drop across
 * lanes and columns at any place is one write and one event: the fields and the place are accepted
 * or refused together.
 */
export const MOVE_FIELDS = ['priority', 'assignee', 'labels', 'metadata'] as const;

const alsoSet = (name: (typeof MOVE_FIELDS)[number]) =>
  `optional: also set ${name} in the same write (a drop into another swimlane)`;

export const MoveBody = closed({
  status: text('target column'),
  position: Type.Optional(Type.Integer({ minimum: 0, description: 'zero-based, default 0' })),
  priority: Type.Optional(priority(alsoSet('priority'))),
  assignee: Type.Optional(assignee(alsoSet('assignee'))),
  labels: Type.Optional(labels(alsoSet('labels'))),
  metadata: Type.Optional(metadata(alsoSet('metadata'))),
});
export type MoveBody = Static<typeof MoveBody>;

export const TransferBody = closed({ targetStatus: Type.Optional(text('column on the destination board')) });
export type TransferBody = Static<typeof TransferBody>;

export const RestoreBody = closed({
  status: Type.Optional(
    text("column to restore into; default: the column an archived card kept, else the board's default status"),
  ),
  position: Type.Optional(
    Type.Integer({ minimum: 0, description: 'zero-based place in that column; default: its end' }),
  ),
});
export type RestoreBody = Static<typeof RestoreBody>;
