import { NotFoundError, ValidationError } from '../core/errors';
import { slugify } from '../core/ids';
import { viewProblem, type SavedView } from '../core/savedViews';
import type { Workspace } from './workspace';
import type { ViewCreateBody } from '../core/shapes/requests/views';

/** A create or update body; omitted fields of an update keep their values. */
export type ViewInput = Partial<ViewCreateBody>;

/** Views of every board, or of one, in the order of `.kanban.json`. */
export function listViews(ws: Workspace, board?: string): SavedView[] {
  if (board !== undefined) ws.board(board);
  return ws.config.views.filter((v) => board === undefined || v.board === board);
}

export function findView(ws: Workspace, id: string): SavedView {
  const view = ws.config.views.find((v) => v.id === id);
  if (!view) throw new NotFoundError(`view "${id}" not found; GET /api/views lists them`);
  return view;
}

/** A readable id from the name, with -2, -3, ... when taken (the card id rule, without the date). */
function newViewId(ws: Workspace, name: string): string {
  // slugify falls back to "card" for a name without letters or digits; a view is a view.
  const base = /[\p{L}\p{N}]/u.test(name) ? slugify(name) : 'view';
  const taken = new Set(ws.config.views.map((v) => v.id));
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

function checked(ws: Workspace, view: SavedView): SavedView {
  if (view.name.trim() === '') throw new ValidationError('body.name must not be empty');
  const problem = viewProblem(
    view,
    ws.config.boards.map((b) => b.id),
  );
  if (problem) throw new ValidationError(`body.${problem.field} ${problem.problem}`);
  return view;
}

export async function createView(ws: Workspace, input: ViewCreateBody): Promise<SavedView> {
  return ws.mutate(async () => {
    if (input.id !== undefined && ws.config.views.some((v) => v.id === input.id)) {
      throw new ValidationError(`view "${input.id}" already exists; PUT /api/views/${input.id} changes it`);
    }
    const view = checked(ws, {
      id: input.id ?? newViewId(ws, input.name),
      name: input.name,
      board: input.board,
      layout: input.layout ?? 'board',
      filter: input.filter ?? {},
      sort: input.sort ?? '',
      groupBy: input.groupBy ?? null,
    });
    await ws.updateConfig((draft) => {
      draft.views = [...draft.views, view];
    });
    ws.emit('view.created', view.board, { view });
    return view;
  });
}

export async function updateView(ws: Workspace, id: string, input: ViewInput): Promise<SavedView> {
  return ws.mutate(async () => {
    const current = findView(ws, id);
    if (input.id !== undefined && input.id !== id)
      throw new ValidationError('body.id cannot change; create a new view and delete this one');
    const view = checked(ws, { ...current, ...input, id });
    await ws.updateConfig((draft) => {
      draft.views = draft.views.map((v) => (v.id === id ? view : v));
    });
    ws.emit('view.updated', view.board, {
      view,
      ...(current.board !== view.board ? { fromBoard: current.board } : {}),
    });
    return view;
  });
}

export async function deleteView(ws: Workspace, id: string): Promise<SavedView> {
  return ws.mutate(async () => {
    const view = findView(ws, id);
    await ws.updateConfig((draft) => {
      draft.views = draft.views.filter((v) => v.id !== id);
    });
    ws.emit('view.deleted', view.board, { view });
    return view;
  });
}
