import { ApiError, type UploadFile } from '../api';
import { slugOf } from '../format';
import type { FormSchema, TaskView, WorkspaceForm } from '../types';
import { messageOf, type BoardController } from './controller';
import { placeTask } from './placement';

/**
 * Requests the card drawer makes: saves onto the version it read (If-Match), actions, forms and
 * files. Each one relays to the server and shows its answer or its refusal; no rule is decided here.
 */

/** A card as the drawer holds it: the copy shown and the version (ETag) it was read at. */
export interface CardVersion {
  task: TaskView;
  etag?: string;
}

/**
 * What a drawer save came to: stored (with the new version), refused because the card changed
 * since the drawer read it (with the newer version, re-read), or failed (the message was shown).
 */
export type DrawerSave =
  | { kind: 'saved'; card: CardVersion }
  | { kind: 'conflict'; latest: CardVersion }
  | { kind: 'failed'; error?: unknown };

export interface DrawerSaveOptions {
  /** Refusals the caller shows itself (beside the field), rather than as a toast. */
  quietOn?(error: unknown): boolean;
}

/**
 * Save a change from the drawer, only while the card is still at `ifMatch` (the version the drawer
 * read). A 412 re-reads the card so the person can compare and choose; nothing is overwritten.
 */
export async function saveFromDrawer(
  ctrl: BoardController,
  taskId: string,
  patch: Record<string, unknown>,
  ifMatch: string | undefined,
  options: DrawerSaveOptions = {},
): Promise<DrawerSave> {
  const boardId = ctrl.state.boardId;
  if (!boardId) return { kind: 'failed' };
  try {
    const { data, etag } = await ctrl.api.updateTaskIfMatch(boardId, taskId, patch, ifMatch);
    if (ctrl.state.boardId === boardId) {
      ctrl.store.set((s) => placeTask(s, data));
      ctrl.scheduleFilter(0);
    }
    return { kind: 'saved', card: { task: data, etag } };
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 412)) {
      if (!options.quietOn?.(error)) ctrl.toast('error', messageOf(error));
      return { kind: 'failed', error };
    }
    const latest = await ctrl.attempt(() => ctrl.api.getTaskVersioned(boardId, taskId));
    if (!latest) return { kind: 'failed' };
    if (ctrl.state.boardId === boardId) ctrl.store.set((s) => placeTask(s, latest.data));
    return { kind: 'conflict', latest: { task: latest.data, etag: latest.etag } };
  }
}

/** The notice a refused drawer save shows. */
export const CHANGED_ELSEWHERE = 'This card was changed elsewhere since you opened it.';

/** A card action as a button: its key (what the server triggers) and its title (what people read). */
export interface CardAction {
  key: string;
  title: string;
}

export function cardActionsOf(task: TaskView): CardAction[] {
  if (Array.isArray(task.actions)) return task.actions.map((key) => ({ key, title: key }));
  return Object.entries(task.actions ?? {}).map(([key, title]) => ({ key, title: title || key }));
}

export async function runCardAction(ctrl: BoardController, task: TaskView, action: CardAction): Promise<void> {
  try {
    await ctrl.api.runCardAction(task.boardId, task.id, action.key);
    ctrl.toast('info', `Action “${action.title}” sent.`);
  } catch (error) {
    ctrl.toast('error', `The action “${action.title}” failed: ${messageOf(error)}`);
  }
}

/** A form the card offers, with the id its submissions are stored under and the values to start from. */
export interface CardFormView {
  id: string;
  name: string;
  schema: FormSchema;
  values: Record<string, unknown>;
}

/**
 * The forms of a card, named the way the server stores their data: an inline form by its id or the
 * slug of its name, a reference by the workspace form's id. Start values layer like a submission
 * does (config defaults, card defaults, saved data, matching metadata) so the form shows what a
 * submit without changes would store.
 */
export function cardFormsOf(task: TaskView, workspaceForms: Record<string, WorkspaceForm>): CardFormView[] {
  return task.forms.flatMap((entry, index): CardFormView[] => {
    const inline = 'schema' in entry && entry.schema ? entry : null;
    const id = inline
      ? (inline.id ?? (inline.name ? slugOf(inline.name, 'card') : `form-${index + 1}`))
      : (entry as { name: string }).name;
    const config = workspaceForms[id];
    const schema = (inline?.schema as FormSchema | undefined) ?? config?.schema;
    if (!schema) return [];
    const properties = schema.properties ?? {};
    const fromMetadata = Object.fromEntries(Object.entries(task.metadata).filter(([key]) => key in properties));
    const cardDefaults = (entry as { data?: Record<string, unknown> }).data ?? {};
    const values = { ...(config?.data ?? {}), ...cardDefaults, ...(task.formData[id] ?? {}), ...fromMetadata };
    const name = inline?.name ?? (config as { name?: string } | undefined)?.name ?? id;
    return [{ id, name, schema, values }];
  });
}

/** Submit a form. Returns the server's refusal message, or null when the data was stored. */
export async function submitCardForm(
  ctrl: BoardController,
  task: TaskView,
  formId: string,
  data: Record<string, unknown>,
): Promise<string | null> {
  try {
    const result = (await ctrl.api.submitForm(task.boardId, task.id, formId, data)) as { task?: TaskView } | undefined;
    if (result?.task && ctrl.state.boardId === task.boardId)
      ctrl.store.set((s) => placeTask(s, result.task as TaskView));
    ctrl.toast('info', 'Form saved.');
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

/** A browser File as the JSON upload body wants it: base64 without the data-URL prefix. */
export function readAsUpload(file: File): Promise<UploadFile> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(new Error(`“${file.name}” could not be read.`));
    reader.onload = () => {
      const url = String(reader.result);
      resolve({
        name: file.name,
        data: url.slice(url.indexOf(',') + 1),
        ...(file.type ? { contentType: file.type } : {}),
      });
    };
    reader.readAsDataURL(file);
  });
}

/** Upload files to a card; returns the updated card, or undefined after showing the refusal. */
export async function uploadFiles(ctrl: BoardController, task: TaskView, files: File[]): Promise<TaskView | undefined> {
  if (files.length === 0) return undefined;
  const updated = await ctrl.attempt(async () =>
    ctrl.api.uploadAttachments(task.boardId, task.id, await Promise.all(files.map(readAsUpload))),
  );
  if (updated && ctrl.state.boardId === task.boardId) ctrl.store.set((s) => placeTask(s, updated));
  return updated;
}

export async function deleteAttachment(
  ctrl: BoardController,
  task: TaskView,
  filename: string,
): Promise<TaskView | undefined> {
  const updated = await ctrl.attempt(() => ctrl.api.deleteAttachment(task.boardId, task.id, filename));
  if (updated && ctrl.state.boardId === task.boardId) ctrl.store.set((s) => placeTask(s, updated));
  return updated;
}

const IMAGE_NAME = /\.(png|jpe?g|gif|webp|avif|bmp|ico)$/i;

/** Images get a preview; SVG is left out because it can carry script. */
export function isImageName(filename: string): boolean {
  return IMAGE_NAME.test(filename);
}

/**
 * The comment author: the name typed last (remembered across reloads, so people type it once),
 * else the one the host knows (in VS Code: `git config user.name` of the folder, else the OS user).
 */
export function commentAuthor(ctrl: BoardController): string {
  const saved = ctrl.preference('commentAuthor');
  return typeof saved === 'string' && saved.trim() ? saved : (ctrl.state.identity ?? '');
}

/** The title the server will derive: the first `#` heading, else the first non-empty line. */
export function titleFromContent(content: string): string {
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(content);
  if (heading) return heading[1].trim();
  return (content.split('\n').find((line) => line.trim() !== '') ?? '').trim().slice(0, 200);
}

/**
 * The open card's file was deleted on disk (by hand, a git checkout) while text typed in the drawer
 * was not saved: make a new card of that text, with the fields the card last had, in its column
 * (or the board's default when that column is gone), and open it. The old id is not taken again: a
 * file of that name may come back from git, and two cards are one card only when they provably are.
 */
export async function recreateCard(ctrl: BoardController, lost: TaskView, content: string): Promise<boolean> {
  const { boardId, board } = ctrl.state;
  if (!boardId || !board) return false;
  const status = board.columns.some((c) => c.id === lost.status)
    ? lost.status
    : (board.defaultStatus ?? board.columns[0]?.id);
  const fields = {
    content,
    status,
    priority: lost.priority,
    labels: lost.labels,
    ...(lost.assignee ? { assignee: lost.assignee } : {}),
    ...(lost.dueDate ? { dueDate: lost.dueDate } : {}),
  };
  const created = await ctrl.attempt(() => ctrl.api.createTask(boardId, fields));
  if (!created) return false;
  if (ctrl.state.boardId === boardId) ctrl.store.set((s) => ({ ...placeTask(s, created), openTaskId: created.id }));
  ctrl.scheduleFilter(0);
  ctrl.toast('info', `Card recreated from your text as “${created.title}”.`);
  return true;
}
