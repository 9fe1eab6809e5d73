import type { ApiClient } from '../client/apiClient';
import type { BoardContext } from '../core/boardContext';
import { contextMarkdown } from '../core/contextMarkdown';
import { callApi, onBoard } from './tool';

/** The board context as `kanban context` prints it, for the MCP tool and resource (the default board unless one is named). */
export async function boardContextText(client: ApiClient, board?: unknown): Promise<string> {
  const { data } = await callApi(client, { method: 'get', path: onBoard(board, '/context') });
  return contextMarkdown(data as BoardContext, { now: Date.now() });
}
