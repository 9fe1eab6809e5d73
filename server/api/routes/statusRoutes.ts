import { describeAuth, describeCardState, describeStorage, describeWorkspace } from '../../service/status';
import { defineRoutes, type JsonSchema } from '../route';

/**
 * Response schemas of the status routes: the OpenAPI document lists every field from them, and the
 * tests hold real answers to them. Extra fields stay allowed so a provider can report more.
 */
const fields = (properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties),
});
const text = (description: string): JsonSchema => ({ type: 'string', description });
const flag = (description: string): JsonSchema => ({ type: 'boolean', description });
const nullable = (type: string, description: string): JsonSchema => ({ type: [type, 'null'], description });

const storageSchema = fields({
  card: fields({ provider: text('card.storage provider: markdown, sqlite, mysql or a package name') }, 'plus provider details (database path, polling)'),
  attachment: fields({ provider: text('attachment.storage provider: localfs, sqlite, s3 or a package name') }),
  webhook: fields({ provider: text('webhook delivery: built-in'), deliveryQueue: text('folder of pending deliveries, relative to the workspace') }),
  cardState: fields({ provider: text('card.state provider: file (built-in, under .kanban/.state/) or sqlite') }),
  filesystem: fields({
    kanbanDir: text('absolute path of the .kanban folder'),
    configPath: text('absolute path of .kanban.json'),
    watch: flag('whether a watcher is following changes made outside the service'),
  }),
});

const workspaceSchema = fields({
  root: text('absolute path of the workspace folder'),
  configPath: text('absolute path of .kanban.json'),
  configExists: flag('false until the first change writes the file'),
  kanbanDir: text('absolute path of the .kanban folder'),
  port: nullable('integer', 'port the HTTP server listens on; null in-process'),
  defaultBoard: text('board that the unscoped /tasks and /columns routes act on'),
  boards: { type: 'array', items: { type: 'string' }, description: 'board ids' },
  cardCount: { type: 'integer', description: 'cards of every board, soft-deleted ones included' },
  providers: storageSchema,
  auth: fields({ provider: nullable('string', 'auth.identity provider id, or null when auth is off'), enabled: flag('whether requests must carry a credential') }),
  watcher: fields({ supported: flag('whether this workspace can be watched for outside changes'), active: flag('whether a watcher runs now') }),
  invalidFiles: {
    type: 'array',
    description: 'card files and .kanban.json versions that do not parse: skipped, reported here, left untouched',
    items: {
      ...fields({ path: text('path relative to the workspace'), reason: text('what is wrong') }),
      // Only when the parser names a line, so not in `required`.
      properties: { path: text('path relative to the workspace'), reason: text('what is wrong'), line: { type: 'integer', minimum: 1, description: 'the 1-based line the parser stopped at, when it says' } },
    },
  },
  recoveredFiles: {
    type: 'array',
    description: 'second copies of cards found at start-up (a crash in the middle of a move, a hand copy): the newer copy is kept, the other moved here',
    items: fields({
      path: text('where the copy was found, relative to the workspace'),
      movedTo: text('where it is now, under .kanban/.state/recovered/'),
      kept: text('the copy that was kept'),
      at: text('when, ISO 8601'),
    }),
  },
  revision: { type: 'integer', description: 'grows by one per change; the same counter as the WebSocket messages' },
});

const cardStateStatusSchema = fields({
  provider: text('card.state provider id'),
  backend: { type: 'string', enum: ['file', 'sqlite'], description: 'storage family of the provider' },
  available: flag('whether card state can be read and written'),
  defaultActor: fields({ id: text('actor used for card state when no auth.identity provider is configured'), usedWhen: text('the condition, in words') }),
  actor: nullable('string', 'actor of this request: "default" without auth, the subject with auth, null when unidentified'),
  identity: fields({
    provider: nullable('string', 'auth.identity provider id, or null'),
    required: flag('whether card-state calls need an identified caller'),
    available: flag('false while the identity provider fails; card-state calls then answer 400 "identity unavailable"'),
    error: nullable('string', 'the last identity failure, or null'),
    since: nullable('string', 'ISO 8601 time of that failure, or null'),
  }),
});

const authSchema = fields({
  provider: nullable('string', 'auth.identity provider id, or null when auth is off'),
  enabled: flag('whether requests must carry a credential'),
  credential: fields({
    present: flag('whether this request carried a credential'),
    source: nullable('string', 'where it came from (header, query), or null'),
    recognised: flag('whether the provider knew it'),
  }, 'what this request carried; the token itself is never echoed'),
  subject: nullable('string', 'who the caller is'),
  role: nullable('string', 'viewer, editor or admin'),
  identityError: nullable('string', 'why the provider could not identify the caller, or null'),
});

export const statusRoutes = defineRoutes([
  { method: 'get', path: '/workspace', tag: 'Workspace', summary: 'Workspace root, port, providers, watcher support and invalid files',
    response: workspaceSchema, handle: ({ ws }) => describeWorkspace(ws) },
  { method: 'get', path: '/storage', tag: 'Workspace', summary: 'Active card, attachment, webhook and card-state providers, plus file and watch metadata',
    response: storageSchema, handle: ({ ws }) => describeStorage(ws) },
  { method: 'get', path: '/card-state/status', tag: 'Card state', summary: 'Card-state provider status, the default-actor contract and identity health',
    response: cardStateStatusSchema, handle: (ctx) => describeCardState(ctx) },
  { method: 'get', path: '/auth', tag: 'Workspace', summary: 'Auth provider and what this request carried (never the token)',
    response: authSchema, handle: (ctx) => describeAuth(ctx) },
  { method: 'get', path: '/forms', tag: 'Forms', summary: 'Workspace forms from .kanban.json',
    response: { type: 'object', description: 'form id to its definition', additionalProperties: fields({ schema: { type: 'object', description: 'JSON schema of the form data' } }) },
    handle: ({ ws }) => ws.config.forms },
]);
