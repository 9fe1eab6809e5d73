import type { Role } from './identity';

/**
 * Tags of routes an editor may change; everything else that writes is admin.
 * `Actions` are card actions; board actions (tag `Board actions`) act on a whole board and stay admin.
 */
const EDITOR_TAGS = new Set([
  'Tasks',
  'Agents',
  'Checklists',
  'Comments',
  'Logs',
  'Attachments',
  'Forms',
  'Actions',
  'Card state',
]);

/**
 * Routes anyone may call, even with auth on: they describe the server and hold no board data.
 * The card-state status is one of them because it must be able to say that the identity provider
 * is failing, which is exactly when nobody can be identified.
 */
const PUBLIC_PATHS = new Set(['/auth', '/card-state/status']);

/** Reads that are not board data: resolve-path tells whether any file on the server's disk exists. */
const ADMIN_READS = new Set(['/resolve-path']);

export type Requirement = Role | 'public';

/** What the role rules read of a route; the route table's RouteDef (api/route.ts) has these and more. */
export interface GuardedRoute {
  method: string;
  path: string;
  tag: string;
  role?: Requirement;
}

/** What a route needs: an explicit `role`, else reads are viewer, card work is editor, the rest admin. */
export function requiredRole(route: GuardedRoute): Requirement {
  if (route.role) return route.role;
  if (PUBLIC_PATHS.has(route.path)) return 'public';
  if (ADMIN_READS.has(route.path)) return 'admin';
  if (route.tag === 'Webhooks' || route.tag === 'Storage') return 'admin';
  if (route.method === 'get') return 'viewer';
  return EDITOR_TAGS.has(route.tag) ? 'editor' : 'admin';
}
