import type { RouteDef } from './route';

/** The words of the OpenAPI document: its info block, tags and security scheme. */

/** The product's name, as package.json `displayName` has it (a test holds the two together). */
export const PRODUCT_NAME = 'Repo Kanban';

/** Version of the API contract (rest-api.md), not of the package: it changes when a client must. */
export const API_VERSION = '1.0.0';

/** What each tag groups, shown as the section heading text in the docs. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Boards: 'Boards of the workspace: their columns, default status and priority, and deletion of empty ones.',
  'Board actions':
    'Named actions of a board (key to title); triggering one emits board.action.triggered for webhooks and scripts to act on.',
  Columns: 'Columns of a board in order. Unscoped routes act on the default board, or on ?boardId= when given.',
  Tasks:
    'Cards: list and search, create, read, update, move, soft delete, delete for good, transfer between boards. {id} takes a unique prefix or substring of a card id.',
  Comments: "A card's comments, stored in its file's frontmatter.",
  Checklists:
    "A card's checklist: the Markdown task list items (- [ ] / - [x]) of its content, outside code blocks, numbered from 0. Each change rewrites that line of the content.",
  Logs: 'Append-only log entries of a card or a board, kept as JSON Lines beside the cards.',
  Attachments: 'Files attached to a card, kept by the attachment provider (a folder per card by default).',
  Forms:
    'Forms defined in .kanban.json or on a card; a submission is validated against the form schema and stored on the card.',
  Actions: 'Actions a card offers; triggering one emits card.action.triggered.',
  Git: 'What the repository the workspace is in says about a card, read only: branches whose name contains the card id (ahead/behind the current branch) and commits whose message has a Kanban: or Refs: trailer naming it. Empty lists outside a git repository.',
  Agents:
    "Agents at work: an agent names itself with the X-Kanban-Agent header (1 to 64 of A-Z a-z 0-9 . _ @ : / -). It claims a card for a lease (default 900 s), during which other agents' writes to the card are refused with 409 (people's go through); pick claims the best ready card in one step, never the same card for two agents, whichever process or worktree they run in.",
  'Card state': "Per-caller state of a card (opened, read up to when), and the card-state provider's health.",
  Settings: 'Workspace display settings from .kanban.json.',
  Labels: 'Workspace-wide label definitions; renames and deletions reach every card of every board.',
  Workspace: 'Where the workspace is, which providers serve it, who the caller is, and storage migration.',
  Import:
    'Cards in from GitHub issues, Trello, CSV or kanban-lite (a dry run unless apply; re-runs skip cards already imported), and a board out as CSV or JSON.',
  Views:
    'Saved views: a named filter, sort, layout and grouping of one board, kept in .kanban.json for the whole team; GET /tasks?view=<id> lists through one. Changes need the admin role once auth is on.',
  Webhooks:
    'HTTP callbacks per event, signed with HMAC-SHA256 when a secret is set, with their delivery history. Admin only once auth is on.',
};

export const BEARER_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description:
    'Auth is off unless .kanban.json configures an identity provider (`auth.identity`); without one every route answers without a credential, ' +
    'acting as the actor "default". With the built-in `token` provider send `Authorization: Bearer <token>`: a missing or unknown token is 401, ' +
    'a token whose role is too low is 403. Roles: viewer reads; editor also changes cards, comments, logs, attachments, forms, card actions and card state; ' +
    'claims and pick are editor work; admin may do everything (boards, columns, labels, settings, webhooks, storage).',
};

/** Whether any route pages its answer (the list routes, once they take `limit`). */
function pages(routes: RouteDef[]): boolean {
  return routes.some((route) => route.query?.some((q) => q.name === 'limit'));
}

export function documentInfo(routes: RouteDef[]) {
  const paragraphs = [
    'Kanban boards kept as Markdown files in a repository: one file per card under .kanban/, configuration in .kanban.json.',
    'Every JSON answer is an envelope: {"ok": true, "data": ...} on success, {"ok": false, "error": "..."} on failure, where the error says what went wrong and how to fix it.',
    'Unscoped /tasks and /columns routes act on the default board; each has a /boards/{boardId}/... twin.',
    'Concurrency: GET of a task, board, settings or labels answers an ETag; send it back as If-Match on PUT/PATCH/DELETE and a change made meanwhile answers 412 instead of being overwritten.',
    'The files are the truth: a write to a card file or .kanban.json that changed on disk since the service read it (or no longer parses) is refused with 409 naming the file; the service adopts the file as it is, so read again and reapply.',
    ...(pages(routes)
      ? [
          'Paging: a list answers at most `limit` items; the next page is in the `Link` header (rel="next") and the total in `X-Total-Count`.',
        ]
      : []),
    'WIP limits: a column may have a wipLimit. On a board whose wipPolicy is warn (the default), a create or move into a full column goes ahead and the answer carries `Warning: 299 - "column <name> is over its WIP limit (<count>/<limit>)"`; with block it is refused with 409 naming the column and its limit. column.limit.exceeded is sent once per crossing.',
    "Writes carrying a browser Origin other than the server's own, a VS Code webview or one allowed (--allow-origin, .kanban.json server.allowedOrigins) are refused with 403.",
    'Auth: off unless .kanban.json configures auth.identity; see the bearerAuth scheme for roles.',
    'Live updates: WebSocket at /ws ({type:"hello", revision} then {type:"event", event, boardId, data, revision} per change).',
  ];
  return {
    title: PRODUCT_NAME,
    version: API_VERSION,
    summary: 'REST API of a kanban board that lives in your repository.',
    description: paragraphs.join('\n\n'),
    license: { name: 'MIT', identifier: 'MIT' },
  };
}
