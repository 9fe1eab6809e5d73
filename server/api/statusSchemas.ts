import type { JsonSchema } from './route';
import { fields, flag, list, named, nullable, text, time } from './schemaParts';
import { invalidFileSchema } from './responseSchemas';
import { DoctorFixReportSchema, DoctorReportSchema } from '../core/shapes/doctor';

/**
 * Response schemas of the status routes (workspace, storage, card-state status, auth). Provider
 * entries stay open (`additionalProperties: true`): each provider reports its own details.
 */

const provider = (description: string, details?: string): JsonSchema => ({
  ...fields({ provider: text(description) }, details),
  additionalProperties: true,
});

export const storageSchema = named(
  'StorageStatus',
  fields(
    {
      card: provider(
        'card.storage provider: markdown, sqlite, mysql or a package name',
        'plus provider details (database path, polling)',
      ),
      attachment: provider(
        'attachment.storage provider: localfs, sqlite, s3 or a package name',
        'plus provider details (bucket, database path)',
      ),
      webhook: fields({
        provider: text('webhook delivery: built-in'),
        deliveryQueue: text('folder of pending deliveries, relative to the workspace'),
      }),
      cardState: provider(
        'card.state provider: file (built-in, under .kanban/.state/), sqlite, or mysql (default over card.storage mysql: shared by every instance)',
        'plus provider details (database path or database, poll interval)',
      ),
      filesystem: fields({
        kanbanDir: text('absolute path of the .kanban folder'),
        configPath: text('absolute path of .kanban.json'),
        watch: flag('whether a watcher is following changes made outside the service'),
      }),
    },
    'the active providers',
  ),
);

export const workspaceSchema = named(
  'WorkspaceInfo',
  fields(
    {
      root: text('absolute path of the workspace folder'),
      configPath: text('absolute path of .kanban.json'),
      configExists: flag('false until the first change writes the file'),
      kanbanDir: text('absolute path of the .kanban folder'),
      port: nullable('integer', 'port the HTTP server listens on; null in-process'),
      defaultBoard: text('board that the unscoped /tasks and /columns routes act on'),
      boards: list({ type: 'string' }, 'board ids'),
      cardCount: { type: 'integer', minimum: 0, description: 'cards of every board, soft-deleted ones included' },
      providers: storageSchema,
      auth: fields({
        provider: nullable('string', 'auth.identity provider id, or null when auth is off'),
        enabled: flag('whether requests must carry a credential'),
      }),
      watcher: fields({
        supported: flag('whether this workspace can be watched for outside changes'),
        active: flag('whether a watcher runs now'),
      }),
      invalidFiles: list(
        invalidFileSchema,
        'card files and .kanban.json versions that do not parse: skipped, reported here, left untouched',
      ),
      configWarnings: list(
        { type: 'string' },
        'keys of .kanban.json this service does not know, each with its JSON path and the known key it is closest to (a likely typo); the file is still used',
      ),
      recoveredFiles: list(
        fields({
          path: text('where the copy was found, relative to the workspace'),
          movedTo: text('where it is now, under .kanban/.state/recovered/'),
          kept: text('the copy that was kept'),
          at: time('when'),
        }),
        "leftovers of a move a crash interrupted (a second file of the same card: same id, named after it, same created stamp): the newer copy is served, the other moved here by the standalone server's start, the card's next write or kanban doctor --fix",
      ),
      staleCopies: list(
        fields({
          path: text('the leftover file, relative to the workspace'),
          id: text('the card it is a copy of'),
          servedFrom: text('the file the card is served from'),
        }),
        'second files of one card left by an interrupted move and not yet moved away: not served',
      ),
      duplicateIds: list(
        fields({
          path: text('the card file, relative to the workspace'),
          id: text('the id its file claims, which another card holds'),
          servedAs: text(
            'the id this card is served as until its file is renamed to it (its next write, or kanban doctor --fix)',
          ),
          sharedWith: text('the file of the card that keeps the claimed id'),
        }),
        'different cards whose files claim one id (a merge of two branches, a copied file): both are served, the one met second under a new id derived from its path',
      ),
      revision: {
        type: 'integer',
        minimum: 0,
        description: 'grows by one per change; the same counter as the WebSocket messages',
      },
      instances: list(
        fields({
          id: text('instance id'),
          host: text('host name of the machine it runs on'),
          pid: { type: 'integer', description: 'its process id there' },
          started: time('when it started'),
          lastSeen: nullable(
            'string',
            'when it last said it was alive over a shared database (every 5 s; gone after 15 s of silence); null for a process serving alone',
          ),
          self: flag('whether it is the instance that answered'),
        }),
        'the service instances serving this workspace: every live one over a shared MySQL database (this one first), else this process alone',
      ),
      claims: fields(
        {
          store: {
            type: 'string',
            enum: ['files', 'database'],
            description:
              "files in a folder (Markdown cards), or tables in the card store's database, shared by every process and instance using it",
          },
          location: text(
            'the folder (in the git common directory, or .kanban/.state/claims), or the database: "mysql <database>@<host>:<port>", "sqlite <file>"',
          ),
        },
        "where agents' claims and sessions live",
      ),
    },
    'where the workspace is and how it is served',
  ),
);

export const cardStateStatusSchema = named(
  'CardStateStatus',
  fields({
    provider: text('card.state provider id'),
    backend: {
      type: 'string',
      enum: ['file', 'sqlite', 'mysql'],
      description: 'storage family of the provider (mysql: shared by every instance over the database)',
    },
    available: flag('whether card state can be read and written'),
    defaultActor: fields({
      id: text('actor used for card state when no auth.identity provider is configured'),
      usedWhen: text('the condition, in words'),
    }),
    actor: nullable(
      'string',
      'actor of this request: "default" without auth, the subject with auth, null when unidentified',
    ),
    identity: fields({
      provider: nullable('string', 'auth.identity provider id, or null'),
      required: flag('whether card-state calls need an identified caller'),
      available: flag(
        'false while the identity provider fails; card-state calls then answer 400 "identity unavailable"',
      ),
      error: nullable('string', 'the last identity failure, or null'),
      since: nullable('string', 'ISO 8601 time of that failure, or null'),
    }),
  }),
);

export const authStatusSchema = named(
  'AuthStatus',
  fields({
    provider: nullable('string', 'auth.identity provider id, or null when auth is off'),
    enabled: flag('whether requests must carry a credential'),
    credential: fields(
      {
        present: flag('whether this request carried a credential'),
        source: nullable('string', 'where it came from (header, query), or null'),
        recognised: flag('whether the provider knew it'),
      },
      'what this request carried; the token itself is never echoed',
    ),
    subject: nullable('string', 'who the caller is'),
    role: {
      type: ['string', 'null'],
      enum: ['viewer', 'editor', 'admin', null],
      description: 'viewer, editor or admin; null when unidentified',
    },
    identityError: nullable('string', 'why the provider could not identify the caller, or null'),
  }),
);

export const doctorReportSchema = DoctorReportSchema;
export const doctorFixSchema = DoctorFixReportSchema;
