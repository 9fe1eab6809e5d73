import type { Method, RouteDef } from '../api/route';
import { routeKey } from './tool';

/**
 * snake_case tool names derived from a route's method and path, so a new route gets a readable
 * name with no MCP code: `GET /tasks/{id}/comments` is `list_task_comments`, `PATCH /tasks/{id}/move`
 * is `move_task`. A name is a verb, then the path's nouns, each singular when a parameter follows it.
 */

/** Words ending in "s" that name one thing, not a collection. */
const SINGULAR_WORDS = new Set(['settings', 'status', 'migrate_to_postgres']);

const isCollection = (word: string) => word.endsWith('s') && !word.endsWith('ss') && !SINGULAR_WORDS.has(word);
const singular = (word: string) =>
  word.endsWith('ies') ? `${word.slice(0, -3)}y` : isCollection(word) ? word.slice(0, -1) : word;

/** Verbs for a path ending in a parameter (one item) and for one ending in a collection. */
const ITEM_VERB: Record<Method, string> = { get: 'get', put: 'update', patch: 'patch', delete: 'delete', post: 'run' };
const COLLECTION_VERB: Record<Method, string> = {
  get: 'list',
  post: 'create',
  put: 'set',
  patch: 'update',
  delete: 'clear',
};

export function toolNameOf(route: Pick<RouteDef, 'method' | 'path'>): string {
  const segments = route.path.split('/').filter(Boolean);
  const nouns: string[] = [];
  for (const segment of segments) {
    if (segment.startsWith('{')) nouns[nouns.length - 1] = singular(nouns[nouns.length - 1] ?? 'item');
    else nouns.push(segment.replace(/[^a-zA-Z0-9]+/g, '_').toLowerCase());
  }
  const last = nouns[nouns.length - 1];
  const join = (verb: string, words: string[]) => [verb, ...words].join('_');
  if (segments[segments.length - 1]?.startsWith('{')) return join(ITEM_VERB[route.method], nouns);
  if (isCollection(last)) {
    const words = route.method === 'post' ? [...nouns.slice(0, -1), singular(last)] : nouns;
    return join(COLLECTION_VERB[route.method], words);
  }
  // A last word that is not a collection names one resource (`/settings`, `/tasks/active`) or,
  // after another noun, what a change does (`/tasks/{id}/move`, `/columns/reorder`).
  if (route.method === 'get' || route.method === 'delete' || nouns.length === 1) {
    return join(route.method === 'get' ? 'get' : route.method === 'delete' ? 'delete' : 'update', nouns);
  }
  // A state word (`/columns/minimized`) is set; any other word is the verb itself.
  return last.endsWith('ed') ? join('set', [last, ...nouns.slice(0, -1)]) : join(last, nouns.slice(0, -1));
}

/**
 * Routes whose derived name would say something else than the call does. The derived name stays
 * callable, so an agent prompt written against it keeps working, but `tools/list` shows only this one.
 */
const RENAMED: Record<string, string> = {
  // derived: update_import; it imports cards (a dry run unless apply is true)
  'post /import': 'import_cards',
  // derived: patch_label; it renames the label on every card
  'patch /labels/{name}': 'rename_label',
  // derived: get_resolve_path; it answers the canonical absolute form of a path
  'get /resolve-path': 'resolve_path',
  // derived: create_board_action; it replaces every action of the board
  'post /boards/{boardId}/actions': 'set_board_actions',
  // derived: get_tasks_active; the card last opened in a board UI
  'get /tasks/active': 'get_active_card',
};

/** The tool name of a route, and the name it had before, when the derived one was renamed. */
export function routeToolName(route: Pick<RouteDef, 'method' | 'path'>): { name: string; formerNames: string[] } {
  const derived = toolNameOf(route);
  const renamed = RENAMED[routeKey(route)];
  return renamed ? { name: renamed, formerNames: [derived] } : { name: derived, formerNames: [] };
}

/** `list_task_logs` is "List task logs": a title a person reads in a client's tool picker. */
export function titleOf(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
