import type { ApiClient } from '../client/apiClient';
import type { BoardContext } from '../core/boardContext';
import { contextMarkdown } from '../core/contextMarkdown';
import { callApi, onBoard } from './tool';

/** The board context, and its text as `kanban context` prints it (the default board unless one is named). */
export async function boardContext(client: ApiClient, board?: unknown): Promise<{ data: BoardContext; text: string }> {
  const data = (await callApi(client, { method: 'get', path: onBoard(board, '/context') })).data as BoardContext;
  return { data, text: contextMarkdown(data, { now: Date.now() }) };
}

/** The board context as `kanban context` prints it, for the MCP resource. */
export async function boardContextText(client: ApiClient, board?: unknown): Promise<string> {
  return (await boardContext(client, board)).text;
}
