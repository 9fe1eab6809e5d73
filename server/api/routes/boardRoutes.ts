import { boardView, createBoard, deleteBoard, listBoards, updateBoard } from '../../service/boards';
import { deleteBoardAction, getBoardActions, putBoardAction, setBoardActions, triggerBoardAction } from '../../service/boardActions';
import { defineRoutes } from '../route';
import { boardVersion } from '../versions';
import { actionTitleSchema, actionsMapSchema, boardCreateSchema, boardUpdateSchema } from '../schemas';
import { actionMapSchema, boardSchema, boardSummaryListSchema, deletedSchema } from '../responseSchemas';

export const boardRoutes = defineRoutes([
  { method: 'get', path: '/boards', tag: 'Boards', summary: 'List boards', returns: 'board summaries {id, name, description, isDefault, taskCount, columns}',
    response: boardSummaryListSchema, handle: ({ ws }) => listBoards(ws) },
  { method: 'post', path: '/boards', tag: 'Boards', summary: 'Create a board (columns inherited from the default board when omitted)', body: boardCreateSchema, success: 201,
    response: boardSchema, handle: ({ ws, body }) => createBoard(ws, body) },
  { method: 'get', path: '/boards/{boardId}', tag: 'Boards', summary: 'Get a board', errors: [404], version: boardVersion,
    response: boardSchema, handle: ({ ws, boardId }) => boardView(ws, ws.board(boardId)) },
  { method: 'put', path: '/boards/{boardId}', tag: 'Boards', summary: 'Update a board (omitted fields keep their values)', body: boardUpdateSchema, errors: [404, 409, 412], version: boardVersion,
    response: boardSchema, handle: ({ ws, boardId, body }) => updateBoard(ws, boardId, body) },
  { method: 'delete', path: '/boards/{boardId}', tag: 'Boards', summary: 'Delete an empty, non-default board', errors: [404, 409, 412], version: boardVersion,
    response: deletedSchema, handle: ({ ws, boardId }) => deleteBoard(ws, boardId) },
  { method: 'get', path: '/boards/{boardId}/actions', tag: 'Board actions', summary: 'Map of board action key to title', errors: [404],
    response: actionMapSchema, handle: ({ ws, boardId }) => getBoardActions(ws, boardId) },
  { method: 'post', path: '/boards/{boardId}/actions', tag: 'Board actions', summary: 'Replace all board actions', body: actionsMapSchema, errors: [404],
    response: actionMapSchema, handle: ({ ws, boardId, body }) => setBoardActions(ws, boardId, body.actions) },
  { method: 'put', path: '/boards/{boardId}/actions/{key}', tag: 'Board actions', summary: 'Add or rename one board action', body: actionTitleSchema, errors: [404],
    response: actionMapSchema, handle: ({ ws, boardId, params, body }) => putBoardAction(ws, boardId, params.key, body.title) },
  { method: 'delete', path: '/boards/{boardId}/actions/{key}', tag: 'Board actions', summary: 'Remove a board action', success: 204, errors: [404],
    handle: ({ ws, boardId, params }) => deleteBoardAction(ws, boardId, params.key) },
  { method: 'post', path: '/boards/{boardId}/actions/{key}/trigger', tag: 'Board actions', summary: 'Trigger a board action (emits board.action.triggered)', success: 204, errors: [404],
    handle: ({ ws, boardId, params }) => triggerBoardAction(ws, boardId, params.key) },
]);
