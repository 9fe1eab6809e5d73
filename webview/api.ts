import type { BrokenFile } from './protocol';
import type { Transport } from './transport';
import { boardCardsPath, listParams } from './listQuery';
import type {
  Board,
  BoardSummary,
  Comment,
  FlowMetrics,
  GitLinks,
  Labels,
  LogEntry,
  Settings,
  TaskFilter,
  TaskView,
  WorkspaceForm,
} from './types';
import { withListDefaults } from './types';

/** A refused or failed call, carrying the server's own message so the UI can show it verbatim. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const enc = encodeURIComponent;

/** An answer with the version it names (the ETag), when the server sent one. */
export interface Versioned<T> {
  data: T;
  etag?: string;
}

export interface UploadFile {
  name: string;
  data: string;
  contentType?: string;
}

/** Typed calls over any transport. The UI keeps no business rules: the server decides, this relays. */
export class Api {
  /** Hears what the server says beside a success (a column over its WIP limit), whichever call it was. */
  onWarnings: ((warnings: string[]) => void) | null = null;

  constructor(readonly transport: Transport) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.versioned<T>(method, path, body)).data;
  }

  /** As `call`, with the resource's version: `ifMatch` goes out as If-Match, the answer's ETag comes back. */
  async versioned<T>(method: string, path: string, body?: unknown, ifMatch?: string): Promise<Versioned<T>> {
    const {
      status,
      body: answer,
      etag,
      warnings,
    } = await this.transport.request(method, path, body, ifMatch !== undefined ? { ifMatch } : undefined);
    if (warnings?.length) this.onWarnings?.(warnings);
    if (status === 204) return { data: undefined as T, etag };
    const envelope = answer as { ok?: boolean; data?: T; error?: string } | null;
    if (status >= 200 && status < 300 && envelope?.ok !== false) return { data: envelope?.data as T, etag };
    if (status === 403) throw new ApiError(`Your role cannot do this: ${envelope?.error ?? 'forbidden'}`, status);
    throw new ApiError(envelope?.error ?? `The request failed (${status}).`, status);
  }

  private task(boardId: string, id: string): string {
    return `/boards/${enc(boardId)}/tasks/${enc(id)}`;
  }

  listBoards = () => this.call<BoardSummary[]>('GET', '/boards');
  getWorkspace = () => this.call<{ invalidFiles: BrokenFile[] }>('GET', '/workspace');
  getBoard = (id: string) => this.call<Board>('GET', `/boards/${enc(id)}`);
  /** Flow metrics of a board; `from` and `to` are dates (YYYY-MM-DD), the server's defaults when left out. */
  getMetrics = (boardId: string, range: { from?: string; to?: string } = {}) => {
    const params = new URLSearchParams(Object.entries(range).filter(([, value]) => value) as [string, string][]);
    return this.call<FlowMetrics>('GET', `/boards/${enc(boardId)}/metrics${params.size ? `?${params}` : ''}`);
  };
  createBoard = (input: { id: string; name: string; description?: string }) =>
    this.call<Board>('POST', '/boards', input);
  updateBoard = (
    id: string,
    patch: Partial<
      Pick<Board, 'name' | 'description' | 'defaultStatus' | 'defaultPriority' | 'wipPolicy' | 'autoArchiveDays'>
    >,
  ) => this.call<Board>('PUT', `/boards/${enc(id)}`, patch);
  deleteBoard = (id: string) => this.call<unknown>('DELETE', `/boards/${enc(id)}`);

  addColumn = (boardId: string, column: { id: string; name: string; color?: string }) =>
    this.call<unknown>('POST', `/boards/${enc(boardId)}/columns`, column);
  updateColumn = (boardId: string, id: string, patch: { name?: string; color?: string; wipLimit?: number | null }) =>
    this.call<unknown>('PUT', `/boards/${enc(boardId)}/columns/${enc(id)}`, patch);
  reorderColumns = (boardId: string, columnIds: string[]) =>
    this.call<unknown>('PUT', `/boards/${enc(boardId)}/columns/reorder`, { columnIds });
  setMinimized = (boardId: string, columnIds: string[]) =>
    this.call<unknown>('PUT', `/boards/${enc(boardId)}/columns/minimized`, { columnIds });
  deleteColumn = (boardId: string, id: string) =>
    this.call<unknown>('DELETE', `/boards/${enc(boardId)}/columns/${enc(id)}`);

  /** The board's cards, asked for compact and filled back here: every component sees whole cards. */
  async listTasks(boardId: string, filter?: Partial<TaskFilter>, includeDeleted = true): Promise<TaskView[]> {
    const entries = await this.call<Partial<TaskView>[]>('GET', boardCardsPath(boardId, filter, includeDeleted));
    return entries.map((entry) => withListDefaults(entry) as TaskView);
  }
  /** The ids of a board's cards that match `filter`: all the board needs to show a search (the cards it has). */
  async matchingIds(boardId: string, filter: Partial<TaskFilter>, includeDeleted: boolean): Promise<string[]> {
    const params = listParams(filter, includeDeleted);
    params.set('fields', 'id');
    return (await this.call<Pick<TaskView, 'id'>[]>('GET', `/boards/${enc(boardId)}/tasks?${params}`)).map((t) => t.id);
  }
  /** A few cards of a board whose text matches `q`, as short entries (id, title, status): for pickers. */
  findCards = (boardId: string, q: string, limit = 8) =>
    this.call<Pick<TaskView, 'id' | 'title' | 'status'>[]>(
      'GET',
      `/boards/${enc(boardId)}/tasks?q=${enc(q)}&fields=id,title,status&limit=${limit}`,
    );
  /** The archive of a board, searched with `q` (the list route's own text search). */
  listArchived = (boardId: string, q = '') =>
    this.call<TaskView[]>('GET', `/boards/${enc(boardId)}/tasks?archived=only${q.trim() ? `&q=${enc(q.trim())}` : ''}`);
  archiveTask = (boardId: string, id: string) => this.call<TaskView>('POST', `${this.task(boardId, id)}/archive`);
  restoreTask = (boardId: string, id: string, status?: string) =>
    this.call<TaskView>('POST', `${this.task(boardId, id)}/restore`, status === undefined ? {} : { status });
  archiveColumn = (boardId: string, columnId: string) =>
    this.call<TaskView[]>('POST', `/boards/${enc(boardId)}/columns/${enc(columnId)}/archive`);
  getTask = (boardId: string, id: string) => this.call<TaskView>('GET', this.task(boardId, id));
  /** The card with its version, to send back as If-Match when changing it. */
  getTaskVersioned = (boardId: string, id: string) => this.versioned<TaskView>('GET', this.task(boardId, id));
  /** A change that applies only while the card is still at `ifMatch` (else ApiError 412). */
  updateTaskIfMatch = (boardId: string, id: string, patch: Record<string, unknown>, ifMatch?: string) =>
    this.versioned<TaskView>('PUT', this.task(boardId, id), patch, ifMatch);
  createTask = (boardId: string, input: Record<string, unknown>) =>
    this.call<TaskView>('POST', `/boards/${enc(boardId)}/tasks`, input);
  /** Checklist changes, each onto the card version `ifMatch` when given (else ApiError 412). */
  addChecklistItem = (boardId: string, id: string, text: string, ifMatch?: string) =>
    this.versioned<TaskView>('POST', `${this.task(boardId, id)}/checklist`, { text }, ifMatch);
  editChecklistItem = (
    boardId: string,
    id: string,
    index: number,
    change: { done?: boolean; text?: string },
    ifMatch?: string,
  ) => this.versioned<TaskView>('PATCH', `${this.task(boardId, id)}/checklist/${index}`, change, ifMatch);
  updateTask = (boardId: string, id: string, patch: Record<string, unknown>) =>
    this.call<TaskView>('PUT', this.task(boardId, id), patch);
  /** `fields`: card fields set in the same write (a drop into another swimlane). */
  moveTask = (boardId: string, id: string, status: string, position: number, fields: Record<string, unknown> = {}) =>
    this.call<TaskView>('PATCH', `${this.task(boardId, id)}/move`, { status, position, ...fields });
  deleteTask = (boardId: string, id: string) => this.call<TaskView>('DELETE', this.task(boardId, id));
  deleteTaskPermanently = (boardId: string, id: string) =>
    this.call<unknown>('DELETE', `${this.task(boardId, id)}/permanent`);
  markOpened = (boardId: string, id: string) => this.call<unknown>('POST', `${this.task(boardId, id)}/open`);
  markRead = (boardId: string, id: string) => this.call<unknown>('POST', `${this.task(boardId, id)}/read`, {});

  listComments = (boardId: string, id: string) => this.call<Comment[]>('GET', `${this.task(boardId, id)}/comments`);
  addComment = (boardId: string, id: string, author: string, content: string) =>
    this.call<Comment>('POST', `${this.task(boardId, id)}/comments`, { author, content });
  editComment = (boardId: string, id: string, commentId: string, content: string) =>
    this.call<Comment>('PUT', `${this.task(boardId, id)}/comments/${enc(commentId)}`, { content });
  deleteComment = (boardId: string, id: string, commentId: string) =>
    this.call<unknown>('DELETE', `${this.task(boardId, id)}/comments/${enc(commentId)}`);

  listLogs = (boardId: string, id: string) => this.call<LogEntry[]>('GET', `${this.task(boardId, id)}/logs`);
  addLog = (boardId: string, id: string, text: string) =>
    this.call<LogEntry>('POST', `${this.task(boardId, id)}/logs`, { text, source: 'board' });
  clearLogs = (boardId: string, id: string) => this.call<unknown>('DELETE', `${this.task(boardId, id)}/logs`);

  /**
   * Agents' claims and sessions, as a person: no agent header goes out, so the server lets any
   * claim or session go (and writes who did it to the card's log).
   */
  releaseClaim = (boardId: string, id: string) => this.call<TaskView>('DELETE', `${this.task(boardId, id)}/claim`);
  clearSession = (boardId: string, id: string) => this.call<TaskView>('DELETE', `${this.task(boardId, id)}/session`);

  /** Branches named after the card and commits whose trailers name it (empty lists outside a git repository). */
  getGitLinks = (boardId: string, id: string) => this.call<GitLinks>('GET', `${this.task(boardId, id)}/git`);

  attachmentPath = (boardId: string, id: string, filename: string, download = false) =>
    `${this.task(boardId, id)}/attachments/${enc(filename)}${download ? '?download=1' : ''}`;
  uploadAttachments = (boardId: string, id: string, files: UploadFile[]) =>
    this.call<TaskView>('POST', `${this.task(boardId, id)}/attachments`, { files });
  deleteAttachment = (boardId: string, id: string, filename: string) =>
    this.call<TaskView>('DELETE', this.attachmentPath(boardId, id, filename));

  listForms = () => this.call<Record<string, WorkspaceForm>>('GET', '/forms');
  submitForm = (boardId: string, id: string, formId: string, data: Record<string, unknown>) =>
    this.call<unknown>('POST', `${this.task(boardId, id)}/forms/${enc(formId)}/submit`, { data });
  runCardAction = (boardId: string, id: string, action: string) =>
    this.call<unknown>('POST', `${this.task(boardId, id)}/actions/${enc(action)}`);

  getSettings = () => this.call<Settings>('GET', '/settings');
  updateSettings = (patch: Partial<Settings>) => this.call<Settings>('PUT', '/settings', patch);

  getLabels = () => this.call<Labels>('GET', '/labels');
  putLabel = (name: string, color: string, group?: string) =>
    this.call<Labels>('PUT', `/labels/${enc(name)}`, { color, group });
  renameLabel = (name: string, newName: string) => this.call<Labels>('PATCH', `/labels/${enc(name)}`, { newName });
  deleteLabel = (name: string) => this.call<Labels>('DELETE', `/labels/${enc(name)}`);
}
