import type { FolderAccess } from '../auth/folderAccess';
import type { FolderRef } from './folderServices';
import type { KanbanService } from './kanbanService';

/** The API refused (4xx/5xx); the message is the envelope's, written for people. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The user was already told (a 401 comes with the offer to set a token): show nothing more. */
    readonly alreadyShown = false,
  ) {
    super(message);
  }
}

/** Where a command's API call goes: the folder, its shared service, and the token that goes along. */
export interface ApiTarget {
  folder: FolderRef;
  service: KanbanService;
  access: FolderAccess;
}

/**
 * Commands use the same route table as HTTP and the webview (through the Dispatcher), so a card
 * added from the palette is validated, authorized and announced exactly like one added anywhere else.
 */
export async function callApi<T>(target: ApiTarget, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await target.access.dispatch(target.service, target.folder, { method, path, body });
  if (answer.status >= 400 || !answer.body || answer.body.ok !== true) {
    const error = answer.body && answer.body.ok === false ? answer.body.error : `status ${answer.status}`;
    throw new ApiCallError(answer.status, error, answer.status === 401);
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
