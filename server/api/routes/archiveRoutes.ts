import { archiveColumn, archiveTask, restoreTask } from '../../service/archive';
import { checkSlugId } from '../../service/validate';
import { defineRoutes, route } from '../route';
import { RestoreBody } from '../../core/shapes/requests/tasks';
import { cardVersion } from '../versions';
import { taskListSchema, taskSchema } from '../responseSchemas';

/** Archive and restore: card routes (editor), each with its board-scoped twin. */
export const archiveRoutes = defineRoutes([
  {
    method: 'post',
    path: '/tasks/{id}/archive',
    tag: 'Tasks',
    twin: true,
    errors: [404, 409, 412],
    version: cardVersion,
    summary:
      'Archive a card: it keeps its status, leaves the columns and lists (see includeArchived, archived=only) and is not counted against WIP limits; emits task.archived',
    response: taskSchema,
    handle: ({ ws, boardId, params }) => archiveTask(ws, boardId, params.id),
  },
  route({
    method: 'post',
    path: '/tasks/{id}/restore',
    tag: 'Tasks',
    twin: true,
    body: RestoreBody,
    errors: [404, 409, 412],
    version: cardVersion,
    warns: true,
    summary:
      'Bring back an archived card (to the column it kept) or a soft-deleted one (to the default status), or to the given status; emits task.restored',
    response: taskSchema,
    handle: ({ ws, boardId, params, body }) => restoreTask(ws, boardId, params.id, body.status, body.position),
  }),
  {
    method: 'post',
    path: '/columns/{columnId}/archive',
    tag: 'Tasks',
    twin: true,
    errors: [404, 409],
    summary:
      'Archive every card of a column in one request (the column menu\'s "Archive all"); one task.archived per card',
    returns: 'the archived cards',
    response: taskListSchema,
    handle: ({ ws, boardId, params }) => archiveColumn(ws, boardId, checkSlugId(params.columnId, 'column id')),
  },
]);
