import { Type, type Static } from '@sinclair/typebox';
import { named } from './names';
import { count, flag, nullableInteger, nullableText, choice, text, textList, time } from './parts';
import { InvalidFileSchema } from './storage';

/** Where the workspace is and how it is served (GET /workspace, GET /storage). */

/** How a store shared by several instances learns of the others' changes. */
export const ChangeWatchSchema = choice(
  ['poll', 'push'] as const,
  "how other instances' changes arrive: poll (this instance reads the change log every pollIntervalMs) or push (the database notifies it at once; a slow poll stays as a safety net)",
);
export type ChangeWatch = Static<typeof ChangeWatchSchema>;

/** Beside its id, whatever details a provider reports about itself. */
const details = (about?: string) => ({ additionalProperties: true, ...(about ? { description: about } : {}) });

/** A provider entry: its id, plus its details. */
const provider = (description: string, about?: string) => Type.Object({ provider: text(description) }, details(about));

/** A provider entry of a store other instances change too: and how their changes arrive. */
const watchedProvider = (description: string, about: string) =>
  Type.Object({ provider: text(description), watch: Type.Optional(ChangeWatchSchema) }, details(about));

export const StorageStatusSchema = named(
  'StorageStatus',
  Type.Object(
    {
      card: watchedProvider(
        'card.storage provider: markdown, sqlite, mysql, postgres or a package name',
        'plus provider details (database path, polling)',
      ),
      attachment: provider(
        'attachment.storage provider: localfs, sqlite, s3, mysql, postgres or a package name',
        'plus provider details (bucket, database path)',
      ),
      webhook: Type.Object({
        provider: text('webhook delivery: built-in'),
        deliveryQueue: text('folder of pending deliveries, relative to the workspace'),
      }),
      cardState: watchedProvider(
        'card.state provider: file (built-in, under .kanban/.state/), sqlite, or mysql (default over card.storage mysql: shared by every instance)',
        'plus provider details (database path or database, poll interval)',
      ),
      filesystem: Type.Object({
        kanbanDir: text('absolute path of the .kanban folder'),
        configPath: text('absolute path of .kanban.json'),
        watch: flag('whether a watcher is following changes made outside the service'),
      }),
    },
    { description: 'the active providers' },
  ),
);

/** A torn move's leftover copy, moved out of the way (under `.kanban/.state/recovered/`). */
export const RecoveredFileSchema = Type.Object({
  path: text('where the copy was found, relative to the workspace'),
  movedTo: text('where it is now, under .kanban/.state/recovered/'),
  kept: text('the copy that was kept'),
  at: time('when'),
});

/** A second file of one card that a crash in the middle of a move left; not served. */
export const StaleCopySchema = Type.Object({
  path: text('the leftover file, relative to the workspace'),
  id: text('the card it is a copy of'),
  servedFrom: text('the file the card is served from'),
});

/** A card whose file claims an id another card holds: served under `servedAs` until its file is renamed. */
export const DuplicateIdCardSchema = Type.Object({
  path: text('the card file, relative to the workspace'),
  id: text('the id its file claims, which another card holds'),
  servedAs: text(
    'the id this card is served as until its file is renamed to it (its next write, or kanban doctor --fix)',
  ),
  sharedWith: text('the file of the card that keeps the claimed id'),
});

export const InstanceInfoSchema = Type.Object({
  id: text('instance id'),
  host: text('host name of the machine it runs on'),
  pid: Type.Integer({ description: 'its process id there' }),
  started: time('when it started'),
  lastSeen: nullableText(
    'when it last said it was alive over a shared database (every 5 s; gone after 15 s of silence); null for a process serving alone',
  ),
  self: flag('whether it is the instance that answered'),
});

export const WorkspaceInfoSchema = named(
  'WorkspaceInfo',
  Type.Object(
    {
      root: text('absolute path of the workspace folder'),
      configPath: text('absolute path of .kanban.json'),
      configExists: flag('false until the first change writes the file'),
      kanbanDir: text('absolute path of the .kanban folder'),
      port: nullableInteger('port the HTTP server listens on; null in-process'),
      defaultBoard: text('board that the unscoped /tasks and /columns routes act on'),
      boards: textList('board ids'),
      cardCount: count('cards of every board, soft-deleted ones included'),
      providers: StorageStatusSchema,
      auth: Type.Object({
        provider: nullableText('auth.identity provider id, or null when auth is off'),
        enabled: flag('whether requests must carry a credential'),
      }),
      watcher: Type.Object({
        supported: flag('whether this workspace can be watched for outside changes'),
        active: flag('whether a watcher runs now'),
      }),
      invalidFiles: Type.Array(InvalidFileSchema, {
        description: 'card files and .kanban.json versions that do not parse: skipped, reported here, left untouched',
      }),
      configWarnings: textList(
        'keys of .kanban.json this service does not know, each with its JSON path and the known key it is closest to (a likely typo); the file is still used',
      ),
      recoveredFiles: Type.Array(RecoveredFileSchema, {
        description:
          "leftovers of a move a crash interrupted (a second file of the same card: same id, named after it, same created stamp): the newer copy is served, the other moved here by the standalone server's start, the card's next write or kanban doctor --fix",
      }),
      staleCopies: Type.Array(StaleCopySchema, {
        description: 'second files of one card left by an interrupted move and not yet moved away: not served',
      }),
      duplicateIds: Type.Array(DuplicateIdCardSchema, {
        description:
          'different cards whose files claim one id (a merge of two branches, a copied file): both are served, the one met second under a new id derived from its path',
      }),
      revision: count('grows by one per change; the same counter as the WebSocket messages'),
      instances: Type.Array(InstanceInfoSchema, {
        description:
          'the service instances serving this workspace: every live one over a shared MySQL database (this one first), else this process alone',
      }),
      claims: Type.Object(
        {
          store: choice(
            ['files', 'database'] as const,
            "files in a folder (Markdown cards), or tables in the card store's database, shared by every process and instance using it",
          ),
          location: text(
            'the folder (in the git common directory, or .kanban/.state/claims), or the database: "mysql <database>@<host>:<port>", "sqlite <file>"',
          ),
        },
        { description: "where agents' claims and sessions live" },
      ),
    },
    { description: 'where the workspace is and how it is served' },
  ),
);
