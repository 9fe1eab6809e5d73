import type { KanbanService } from './kanbanService';

/** The API refused (4xx/5xx); the message is the envelope's, written for people. */
export class ApiCallError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/**
 * Commands use the same route table as HTTP and the webview (through the Dispatcher), so a card
 * added from the palette is validated and announced exactly like one added anywhere else.
 */
export async function callApi<T>(service: KanbanService, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await service.dispatcher.dispatch({ method, path, body });
  if (answer.status >= 400 || !answer.body || answer.body.ok !== true) {
    const error = answer.body && answer.body.ok === false ? answer.body.error : `status ${answer.status}`;
    throw new ApiCallError(answer.status, error);
  }
  return answer.body.data as T;
}

export interface BoardSummary {
  id: string;
  name: string;
  isDefault?: boolean;
  taskCount?: number;
}

export interface ColumnInfo {
  id: string;
  name: string;
}

export interface TaskSummary {
  id: string;
  boardId: string;
  title: string;
  status: string;
  priority?: string;
}
