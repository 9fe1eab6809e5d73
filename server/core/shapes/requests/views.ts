import { Type, type Static } from '@sinclair/typebox';
import { VIEW_LAYOUTS } from '../../savedViews';
import { SORT_VALUES } from '../../listPaging';
import { choice, closed, nullableText } from '../parts';

/** Request bodies of the saved-view routes. */

const filter = (filterKeys: readonly string[]) =>
  Type.Unsafe<Record<string, string | boolean | number>>({
    type: 'object',
    additionalProperties: { type: ['string', 'boolean', 'number'] },
    description: `list-route query parameters: ${filterKeys.join(', ')}, meta.<field>`,
  });

const viewFields = (filterKeys: readonly string[]) => ({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'shown in the view switcher' }),
  board: Type.String({ description: 'id of the board the view shows' }),
  layout: Type.Optional(choice(VIEW_LAYOUTS, 'board (columns), table or graph (dependencies)')),
  filter: Type.Optional(filter(filterKeys)),
  sort: Type.Optional(choice(['', ...SORT_VALUES], 'a list-route sort value; "" keeps the board order')),
  groupBy: Type.Optional(
    nullableText({
      maxLength: 300,
      description: 'assignee, priority, labelGroup:<group>, metadata:<key path>, or null for plain columns',
    }),
  ),
});

/**
 * The view bodies, given the list route's filter parameters (the routes know them; a filter's
 * description names them).
 */
export function viewBodies(filterKeys: readonly string[]) {
  const fields = viewFields(filterKeys);
  return {
    create: closed({
      id: Type.Optional(
        Type.String({
          pattern: '^[a-z0-9][a-z0-9_-]{0,63}$',
          description: 'optional; made from the name when omitted',
        }),
      ),
      ...fields,
    }),
    update: Type.Partial(closed(fields)),
  };
}

export type ViewCreateBody = Static<ReturnType<typeof viewBodies>['create']>;
export type ViewUpdateBody = Static<ReturnType<typeof viewBodies>['update']>;
