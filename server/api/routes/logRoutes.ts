import { addBoardLog, clearBoardLogs } from '../../service/logs';
import { defineRoutes, route } from '../route';
import { LogBody } from '../../core/shapes/requests/cardNotes';
import { clearedSchema, logEntryListSchema, logEntrySchema } from '../responseSchemas';

export const logRoutes = defineRoutes([
  {
    method: 'get',
    path: '/boards/{boardId}/logs',
    tag: 'Logs',
    summary: 'Board log entries, oldest first',
    errors: [404],
    response: logEntryListSchema,
    handle: ({ ws, boardId }) => ws.logs.read({ boardId }),
  },
  route({
    method: 'post',
    path: '/boards/{boardId}/logs',
    tag: 'Logs',
    summary: 'Append a board log entry',
    body: LogBody,
    success: 201,
    errors: [404],
    noConflict: "it appends to the board's log, which no one else rewrites",
    response: logEntrySchema,
    handle: ({ ws, boardId, body }) => addBoardLog(ws, boardId, body),
  }),
  {
    method: 'delete',
    path: '/boards/{boardId}/logs',
    tag: 'Logs',
    summary: 'Remove all board log entries',
    errors: [404],
    noConflict: "it empties the board's log, which holds no one's edit",
    response: clearedSchema,
    handle: ({ ws, boardId }) => clearBoardLogs(ws, boardId),
  },
]);
