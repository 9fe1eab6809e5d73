/**
 * Who may call what, written out by hand from server/auth/README.md:
 * viewer reads; editor works on cards (tasks, checklists, comments, logs, attachments, forms, actions, card
 * state); admin changes boards, columns, labels, views, settings, webhooks and storage. This table is the
 * expectation; it is deliberately not computed from server/auth/roles.ts, so loosening a route there
 * makes the matrix fail.
 */
export const EXPECTED_ROLE: Record<string, 'public' | 'viewer' | 'editor' | 'admin'> = {
  'GET /boards': 'viewer',
  'POST /boards': 'admin',
  'GET /boards/{boardId}': 'viewer',
  'PUT /boards/{boardId}': 'admin',
  'DELETE /boards/{boardId}': 'admin',
  'GET /boards/{boardId}/actions': 'viewer',
  'POST /boards/{boardId}/actions': 'admin',
  'PUT /boards/{boardId}/actions/{key}': 'admin',
  'DELETE /boards/{boardId}/actions/{key}': 'admin',
  // Board actions run board-wide automation (deploys, releases): admin, as the role table of docs/security.md says.
  'POST /boards/{boardId}/actions/{key}/trigger': 'admin',

  'GET /columns': 'viewer',
  'GET /boards/{boardId}/columns': 'viewer',
  'POST /columns': 'admin',
  'POST /boards/{boardId}/columns': 'admin',
  'PUT /columns/reorder': 'admin',
  'PUT /boards/{boardId}/columns/reorder': 'admin',
  'PUT /columns/minimized': 'admin',
  'PUT /boards/{boardId}/columns/minimized': 'admin',
  'PUT /columns/{columnId}': 'admin',
  'PUT /boards/{boardId}/columns/{columnId}': 'admin',
  'DELETE /columns/{columnId}': 'admin',
  'DELETE /boards/{boardId}/columns/{columnId}': 'admin',

  'POST /tasks/{id}/archive': 'editor',
  'POST /boards/{boardId}/tasks/{id}/archive': 'editor',
  'POST /tasks/{id}/restore': 'editor',
  'POST /boards/{boardId}/tasks/{id}/restore': 'editor',
  // Archiving a column's cards is card work, like archiving them one by one.
  'POST /columns/{columnId}/archive': 'editor',
  'POST /boards/{boardId}/columns/{columnId}/archive': 'editor',

  'GET /tasks': 'viewer',
  'GET /boards/{boardId}/tasks': 'viewer',
  'POST /tasks': 'editor',
  'POST /boards/{boardId}/tasks': 'editor',
  'GET /tasks/active': 'viewer',
  'GET /boards/{boardId}/tasks/active': 'viewer',
  'GET /tasks/{id}': 'viewer',
  'GET /boards/{boardId}/tasks/{id}': 'viewer',
  'PUT /tasks/{id}': 'editor',
  'PUT /boards/{boardId}/tasks/{id}': 'editor',
  'DELETE /tasks/{id}': 'editor',
  'DELETE /boards/{boardId}/tasks/{id}': 'editor',
  'DELETE /tasks/{id}/permanent': 'editor',
  'DELETE /boards/{boardId}/tasks/{id}/permanent': 'editor',
  'PATCH /tasks/{id}/move': 'editor',
  'PATCH /boards/{boardId}/tasks/{id}/move': 'editor',
  'POST /boards/{boardId}/tasks/{id}/transfer': 'editor',
  // A bulk edit is the same card work as its single edits.
  'POST /tasks/bulk': 'editor',
  'POST /boards/{boardId}/tasks/bulk': 'editor',
  // Claims and pick are how agents take up card work: editor, like the writes they guard.
  'POST /tasks/pick': 'editor',
  'POST /boards/{boardId}/tasks/pick': 'editor',
  'POST /tasks/{id}/claim': 'editor',
  'POST /boards/{boardId}/tasks/{id}/claim': 'editor',
  'DELETE /tasks/{id}/claim': 'editor',
  'DELETE /boards/{boardId}/tasks/{id}/claim': 'editor',
  'PUT /tasks/{id}/session': 'editor',
  'PUT /boards/{boardId}/tasks/{id}/session': 'editor',
  'DELETE /tasks/{id}/session': 'editor',
  'DELETE /boards/{boardId}/tasks/{id}/session': 'editor',
  // The board context is a read of the cards, claims and sessions every viewer sees anyway.
  'GET /context': 'viewer',
  'GET /metrics': 'viewer',
  'GET /boards/{boardId}/context': 'viewer',
  'GET /boards/{boardId}/metrics': 'viewer',

  'POST /tasks/{id}/checklist': 'editor',
  'POST /boards/{boardId}/tasks/{id}/checklist': 'editor',
  'PATCH /tasks/{id}/checklist/{index}': 'editor',
  'PATCH /boards/{boardId}/tasks/{id}/checklist/{index}': 'editor',
  'DELETE /tasks/{id}/checklist/{index}': 'editor',
  'DELETE /boards/{boardId}/tasks/{id}/checklist/{index}': 'editor',
  'GET /tasks/{id}/comments': 'viewer',
  'GET /boards/{boardId}/tasks/{id}/comments': 'viewer',
  'POST /tasks/{id}/comments': 'editor',
  'POST /boards/{boardId}/tasks/{id}/comments': 'editor',
  'PUT /tasks/{id}/comments/{commentId}': 'editor',
  'PUT /boards/{boardId}/tasks/{id}/comments/{commentId}': 'editor',
  'DELETE /tasks/{id}/comments/{commentId}': 'editor',
  'DELETE /boards/{boardId}/tasks/{id}/comments/{commentId}': 'editor',

  'GET /tasks/{id}/git': 'viewer',
  'GET /boards/{boardId}/tasks/{id}/git': 'viewer',

  'GET /tasks/{id}/logs': 'viewer',
  'GET /boards/{boardId}/tasks/{id}/logs': 'viewer',
  'POST /tasks/{id}/logs': 'editor',
  'POST /boards/{boardId}/tasks/{id}/logs': 'editor',
  'DELETE /tasks/{id}/logs': 'editor',
  'DELETE /boards/{boardId}/tasks/{id}/logs': 'editor',
  'GET /boards/{boardId}/logs': 'viewer',
  'POST /boards/{boardId}/logs': 'editor',
  'DELETE /boards/{boardId}/logs': 'editor',

  'POST /tasks/{id}/attachments': 'editor',
  'POST /boards/{boardId}/tasks/{id}/attachments': 'editor',
  'GET /tasks/{id}/attachments/{filename}': 'viewer',
  'GET /boards/{boardId}/tasks/{id}/attachments/{filename}': 'viewer',
  'DELETE /tasks/{id}/attachments/{filename}': 'editor',
  'DELETE /boards/{boardId}/tasks/{id}/attachments/{filename}': 'editor',

  'POST /tasks/{id}/forms/{formId}/submit': 'editor',
  'POST /boards/{boardId}/tasks/{id}/forms/{formId}/submit': 'editor',
  'POST /tasks/{id}/actions/{action}': 'editor',
  'POST /boards/{boardId}/tasks/{id}/actions/{action}': 'editor',
  'POST /tasks/{id}/open': 'editor',
  'POST /boards/{boardId}/tasks/{id}/open': 'editor',
  'POST /tasks/{id}/read': 'editor',
  'POST /boards/{boardId}/tasks/{id}/read': 'editor',

  'GET /settings': 'viewer',
  'PUT /settings': 'admin',
  'GET /labels': 'viewer',
  'GET /labels/usage': 'viewer',
  'PUT /labels/{name}': 'admin',
  'PATCH /labels/{name}': 'admin',
  'DELETE /labels/{name}': 'admin',
  'GET /views': 'viewer',
  'POST /views': 'admin',
  'GET /views/{id}': 'viewer',
  'PUT /views/{id}': 'admin',
  'DELETE /views/{id}': 'admin',
  'GET /forms': 'viewer',

  'GET /workspace': 'viewer',
  'GET /workspace/doctor': 'viewer',
  'POST /workspace/doctor/fix': 'admin',
  'GET /storage': 'viewer',
  // Moving every card between providers rewrites the whole workspace.
  'POST /storage/migrate-to-sqlite': 'admin',
  'POST /storage/migrate-to-postgres': 'admin',
  'POST /storage/migrate-to-mysql': 'admin',
  'POST /storage/migrate-to-markdown': 'admin',
  // Creates many cards at once from another tool's data: admin, like other bulk changes.
  'POST /import': 'admin',
  'GET /export': 'viewer',
  'GET /boards/{boardId}/export': 'viewer',
  // Tells whether any path on the server's disk exists: not board data, so not for every reader.
  'GET /resolve-path': 'admin',
  // Describe the server, hold no board data, and must answer while the identity provider is down.
  'GET /auth': 'public',
  'GET /card-state/status': 'public',

  'GET /webhooks': 'admin',
  'POST /webhooks': 'admin',
  'PUT /webhooks/{id}': 'admin',
  'DELETE /webhooks/{id}': 'admin',
  'GET /webhooks/{id}/deliveries': 'admin',
};

const RANK = { viewer: 0, editor: 1, admin: 2 } as const;

/** The status a caller must get when the role is not enough (or null: allowed). */
export function deniedStatus(
  need: 'public' | 'viewer' | 'editor' | 'admin',
  caller: 'none' | 'bad' | 'viewer' | 'editor' | 'admin',
): 401 | 403 | null {
  if (need === 'public') return null;
  if (caller === 'none' || caller === 'bad') return 401;
  return RANK[caller] >= RANK[need] ? null : 403;
}
