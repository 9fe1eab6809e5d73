import { Type, type Static } from '@sinclair/typebox';
import { PRIORITIES } from '../vocabulary';
import { choice, closed, nullableText, textList } from '../parts';

/** The request body of a bulk edit: one change for many cards, all or nothing. */

/** Most cards one bulk request may change. */
export const BULK_MAX = 500;

const only = (description: string) => Type.Literal(true, { description });

/** The change fields; one request carries one kind of them (checked by the service, which names what is wrong). */
const changeFields = {
  status: Type.Optional(Type.String({ description: 'move: the column to move to (deleted too)' })),
  position: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        "move: zero-based place of the first card, default 0; with ids + change the others follow it in the order of ids. restore: the card's place, default the column's end",
    }),
  ),
  priority: Type.Optional(choice(PRIORITIES)),
  assignee: Type.Optional(nullableText({ description: 'null or "" clears' })),
  labels: Type.Optional(
    closed({ set: Type.Optional(textList()), add: Type.Optional(textList()), remove: Type.Optional(textList()) }),
  ),
  archive: Type.Optional(only('archive the cards (task.archived each)')),
  delete: Type.Optional(only('soft delete the cards (task.deleted each)')),
  restore: Type.Optional(
    only(
      'bring archived or deleted cards back (task.restored each), to status and position when given, else as POST /tasks/{id}/restore does',
    ),
  ),
};

const BulkChange = closed(changeFields, {
  description:
    'one kind of change applied to every card: status (+ position), priority, assignee, labels ({set} or {add, remove}), archive, delete or restore (+ status, position)',
});
/** One kind of change; `status` (with an optional `position`) is a move. */
export type BulkChange = Static<typeof BulkChange>;

export const BulkBody = closed(
  {
    ids: Type.Optional(
      Type.Array(Type.String(), {
        minItems: 1,
        maxItems: BULK_MAX,
        description: 'the cards (partial ids match, as in paths)',
      }),
    ),
    change: Type.Optional(BulkChange),
    changes: Type.Optional(
      Type.Array(closed({ id: Type.String(), ...changeFields }), {
        minItems: 1,
        maxItems: BULK_MAX,
        description:
          'instead of ids + change: per-card values of one kind of change, applied in this order (e.g. an undo putting each card back where it was)',
      }),
    ),
    versions: Type.Optional(
      Type.Unsafe<Record<string, string>>({
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'card id -> ETag read earlier: a stale one refuses the whole request (412)',
      }),
    ),
  },
  { description: 'ids with one change, or changes; all or nothing' },
);
export type BulkBody = Static<typeof BulkBody>;
