import * as path from 'node:path';
import type { PluginEntry } from '../config/types';
import type { CardStore } from './cardStore';
import { MarkdownCardStore } from './markdown/markdownCardStore';
import type { AttachmentStore } from './attachmentStore';
import type { CardStateStore } from './cardStateStore';
import { LocalFsAttachmentStore } from './localfs/localFsAttachmentStore';
import { FileCardStateStore } from './state/fileCardStateStore';
import { FileLogStore } from './localfs/fileLogStore';
import type { LogStore } from './logStore';
import { AttachmentsWithLocalFiles, LogsWithLocalFiles } from './localFilesFallback';
import { ProviderError, ProviderOptions, envFlag } from './providerOptions';
import { createExternalStore } from './externalProvider';
import type { AttachmentStoreFactory, CardStoreFactory } from './contract';
import { DEFAULT_SQLITE_PATH, SqliteCardStore, type SqliteLocation } from './sqlite/sqliteCardStore';
import { SharedSqliteCardStore } from './sqlite/sharedSqliteCardStore';
import { MysqlCardStore, type MysqlSettings } from './mysql/mysqlCardStore';
import { MysqlOpenError } from './mysql/mysqlDatabase';
import { PostgresCardStore, type PostgresSettings } from './postgres/postgresCardStore';
import { PostgresOpenError } from './postgres/postgresDatabase';
import { SqliteAttachmentStore } from './sqlite/sqliteAttachmentStore';
import { SqliteCardStateStore } from './sqlite/sqliteCardStateStore';
import { S3AttachmentStore, S3OpenError, type S3Settings } from './s3/s3AttachmentStore';

export { ProviderError } from './providerOptions';

export interface ProviderContext {
  root: string;
  kanbanDir: string;
  plugins: Record<string, PluginEntry>;
  /** The folder must stay as it is (see WorkspaceOptions.readOnly): no cache written at load. */
  readOnly?: boolean;
}

/** How often SQL card stores look for other processes' writes, unless `pollIntervalMs` says otherwise. */
const DEFAULT_POLL_MS = 1000;

/**
 * Build a provider, turning any failure into one message that names the provider, the setting and
 * the cause. Optional drivers (better-sqlite3, mysql2, pg, the S3 client) are required inside the
 * provider modules' open functions, so only a configured provider loads its dependency.
 */
async function build<T>(options: ProviderOptions, key: string | undefined, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    const cause = (error as Error).message ?? String(error);
    if (error instanceof S3OpenError) throw options.failSetting(s3SettingName(options, error.setting), cause);
    const setting =
      (error instanceof MysqlOpenError || error instanceof PostgresOpenError) && error.setting ? error.setting : key;
    throw options.fail(setting, cause);
  }
}

/** Where a SQLite provider keeps its file: `sqlitePath`, workspace-relative, default `.kanban/kanban.db`. */
export function sqliteLocation(root: string, options: ProviderOptions): SqliteLocation {
  const sqlitePath = options.string('sqlitePath') ?? DEFAULT_SQLITE_PATH;
  return { sqlitePath, absolutePath: resolveInWorkspace(root, sqlitePath) };
}

/** MySQL options: `database` is required, the rest default to a local server (root, no password, no TLS). */
function mysqlSettings(options: ProviderOptions): MysqlSettings {
  const ssl = options.raw('ssl');
  if (
    ssl !== undefined &&
    typeof ssl !== 'boolean' &&
    (typeof ssl !== 'object' || ssl === null || Array.isArray(ssl))
  ) {
    throw options.fail('ssl', 'must be true, false or an object of TLS options (ca, rejectUnauthorized...)');
  }
  return {
    database: options.requiredString('database'),
    host: options.string('host') ?? '127.0.0.1',
    port: options.integer('port', 3306, 1, 65535),
    user: options.string('user') ?? 'root',
    password: options.string('password') ?? '',
    ssl: (ssl as MysqlSettings['ssl'] | undefined) ?? false,
  };
}

const POSTGRES_PORT = 5432;

/**
 * PostgreSQL options: a connection `url`, or `database` (required then) with host, port, user and
 * password defaulting to a local server (postgres, no password, no TLS). Both forms take
 * `${NAME}` values from the environment, so the password need not be in the file.
 */
function postgresSettings(options: ProviderOptions): PostgresSettings {
  const ssl = options.raw('ssl');
  if (
    ssl !== undefined &&
    typeof ssl !== 'boolean' &&
    (typeof ssl !== 'object' || ssl === null || Array.isArray(ssl))
  ) {
    throw options.fail('ssl', 'must be true, false or an object of TLS options (ca, rejectUnauthorized...)');
  }
  const url = options.string('url');
  if (url === undefined) {
    return {
      database: options.requiredString('database'),
      host: options.string('host') ?? '127.0.0.1',
      port: options.integer('port', POSTGRES_PORT, 1, 65535),
      user: options.string('user') ?? 'postgres',
      password: options.string('password') ?? '',
      ssl: (ssl as PostgresSettings['ssl'] | undefined) ?? false,
    };
  }
  for (const part of ['database', 'host', 'port', 'user', 'password']) {
    if (options.raw(part) !== undefined) throw options.fail(part, 'give either url or the connection parts, not both');
  }
  return { url, ...urlParts(options, url), ssl: (ssl as PostgresSettings['ssl'] | undefined) ?? false };
}

/** What a connection URL names, for messages and /api/storage (the password stays in the URL only). */
function urlParts(options: ProviderOptions, url: string): Omit<PostgresSettings, 'url' | 'ssl'> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw options.fail('url', 'is not a URL; write it as postgres://user:password@host:5432/database');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw options.fail('url', 'must start with postgres:// or postgresql://');
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!database) throw options.fail('url', 'names no database; end it with /<database>');
  return {
    database,
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : POSTGRES_PORT,
    user: decodeURIComponent(parsed.username) || 'postgres',
    password: '',
  };
}

/** The card store `card.storage` names (markdown when nothing is configured). */
export async function createCardStore(context: ProviderContext): Promise<CardStore> {
  const options = ProviderOptions.of('card.storage', context.plugins['card.storage'], 'markdown');
  switch (options.provider) {
    case 'markdown':
      return new MarkdownCardStore(context.root, context.kanbanDir, { keepIndexCache: !context.readOnly });
    case 'sqlite': {
      const location = sqliteLocation(context.root, options);
      const pollMs = options.integer('pollIntervalMs', DEFAULT_POLL_MS, 50, 60_000);
      // shared: several server processes over this file share configuration and live events too.
      const open = options.boolean('shared', false) ? SharedSqliteCardStore.open : SqliteCardStore.open;
      return build(options, 'sqlitePath', () => open(location, pollMs));
    }
    case 'mysql': {
      const settings = mysqlSettings(options);
      const pollMs = options.integer('pollIntervalMs', DEFAULT_POLL_MS, 50, 60_000);
      return build(options, 'database', () => MysqlCardStore.open(settings, pollMs));
    }
    case 'postgres': {
      const settings = postgresSettings(options);
      const pollMs = options.integer('pollIntervalMs', DEFAULT_POLL_MS, 50, 60_000);
      return build(options, settings.url ? 'url' : 'database', () => PostgresCardStore.open(settings, pollMs));
    }
    default:
      // Any other name is a package or a ./module.js implementing the public contract (contract.ts).
      return createExternalStore('card.storage', options, context);
  }
}

export function resolveInWorkspace(root: string, relative: string): string {
  return path.resolve(root, relative);
}

/** Keys that would put a secret into .kanban.json; the S3 provider refuses them. */
const S3_SECRET_KEYS = ['accessKeyId', 'secretAccessKey', 'sessionToken', 'credentials'];

/**
 * S3 settings. The service's own variables (SVC_S3_BUCKET, SVC_S3_ENDPOINT, SVC_S3_FORCE_PATH_STYLE,
 * SVC_S3_REGION) win over the provider's config (bucket, endpoint, forcePathStyle, region), which
 * wins over the generic AWS_REGION. Credentials come only from the AWS SDK's chain (environment,
 * profile, instance role).
 */
export function s3Settings(options: ProviderOptions, env: NodeJS.ProcessEnv = process.env): S3Settings {
  for (const key of S3_SECRET_KEYS) {
    if (options.raw(key) !== undefined) {
      throw options.fail(
        key,
        'credentials are never read from .kanban.json; remove it and set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or an AWS profile) in the environment',
      );
    }
  }
  const bucket = env.SVC_S3_BUCKET || options.string('bucket');
  if (!bucket) throw options.failSetting(s3SettingName(options, 'bucket'), 'no bucket is set');
  const prefix = options.string('prefix') ?? '';
  return {
    bucket,
    region: env.SVC_S3_REGION || options.string('region') || env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    endpoint: env.SVC_S3_ENDPOINT || options.string('endpoint'),
    forcePathStyle: envFlag(env.SVC_S3_FORCE_PATH_STYLE) ?? options.boolean('forcePathStyle', false),
    prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
  };
}

function s3SettingName(options: ProviderOptions, setting: string | undefined): string {
  switch (setting) {
    case 'bucket':
      return `SVC_S3_BUCKET or ${options.settingPath('bucket')} in .kanban.json`;
    case 'endpoint':
      return `SVC_S3_ENDPOINT or ${options.settingPath('endpoint')} in .kanban.json`;
    case 'credentials':
      return 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) in the environment';
    default:
      return `${options.settingPath()} in .kanban.json`;
  }
}

/**
 * The attachment store `attachment.storage` names. When nothing is configured: the database of a
 * card store that several instances share (MySQL, PostgreSQL), so they all serve the same files,
 * else local files. A configured store (S3 above all) keeps priority.
 */
export async function createAttachmentStore(context: ProviderContext, cardStore?: CardStore): Promise<AttachmentStore> {
  const shared = cardStore?.sharedAttachments?.();
  if (shared && !context.plugins['attachment.storage'])
    return new AttachmentsWithLocalFiles(shared, new LocalFsAttachmentStore(context.kanbanDir));
  const options = ProviderOptions.of('attachment.storage', context.plugins['attachment.storage'], 'localfs');
  switch (options.provider) {
    case 'localfs':
      return new LocalFsAttachmentStore(context.kanbanDir);
    case 'sqlite': {
      const location = sqliteLocation(context.root, options);
      return build(options, 'sqlitePath', () => SqliteAttachmentStore.open(location));
    }
    case 's3': {
      const settings = s3Settings(options);
      return build(options, 'bucket', () => S3AttachmentStore.open(settings));
    }
    case 'mysql':
    case 'postgres':
      // The files live beside the cards, in the same database and connection pool.
      if (shared?.provider !== options.provider)
        throw options.fail(
          undefined,
          `the ${options.provider} attachments live in the card.storage ${options.provider} database; set card.storage to ${options.provider}, or use localfs, sqlite or s3`,
        );
      return new AttachmentsWithLocalFiles(shared, new LocalFsAttachmentStore(context.kanbanDir));
    default:
      return createExternalStore('attachment.storage', options, context);
  }
}

/** Card and board logs: in the database of a card store that several instances share, else files. */
export function createLogStore(context: ProviderContext, cardStore: CardStore): LogStore {
  const files = new FileLogStore(context.kanbanDir);
  const shared = cardStore.sharedLogs?.();
  return shared ? new LogsWithLocalFiles(shared, files) : files;
}

/**
 * The card state store `card.state` names. When nothing is configured: the database of a card store
 * that several instances share (MySQL, PostgreSQL, a SQLite file with `shared: true`), so they all report the
 * same unread state, else a file under .kanban/.state/.
 */
export async function createCardStateStore(context: ProviderContext, cardStore?: CardStore): Promise<CardStateStore> {
  const shared = cardStore?.sharedCardState?.();
  // Unset over a shared store (MySQL, PostgreSQL, a shared SQLite file): the state lives beside the cards.
  if (shared && !context.plugins['card.state']) return shared;
  const options = ProviderOptions.of('card.state', context.plugins['card.state'], 'file');
  switch (options.provider) {
    case 'file':
      return new FileCardStateStore(path.join(context.kanbanDir, '.state'));
    case 'sqlite': {
      const location = sqliteLocation(context.root, options);
      return build(options, 'sqlitePath', () => SqliteCardStateStore.open(location));
    }
    case 'mysql':
      // The state lives beside the cards, in the same database and connection pool.
      if (shared?.provider !== 'mysql')
        throw options.fail(
          undefined,
          'the mysql card state lives in the card.storage mysql database; set card.storage to mysql, or use file or sqlite',
        );
      return shared;
    case 'postgres':
      if (shared?.provider !== 'postgres')
        throw options.fail(
          undefined,
          'the postgres card state lives in the card.storage postgres database; set card.storage to postgres, or use file or sqlite',
        );
      return shared;
    default:
      throw options.fail(undefined, 'unknown provider (known: file, sqlite, mysql, postgres)');
  }
}

/** The built-in providers' names, per capability another package can also serve. */
export const BUILT_IN_PROVIDERS = {
  'card.storage': ['markdown', 'sqlite', 'mysql', 'postgres'],
  'attachment.storage': ['localfs', 'sqlite', 's3'],
} as const;

/**
 * A built-in provider as a factory of the public contract's shape, so the conformance suite runs
 * the built-ins exactly as it runs a provider from another package.
 */
export function builtInCardStoreFactory(provider: string): CardStoreFactory {
  return (options, context) => createCardStore({ ...context, plugins: { 'card.storage': { provider, options } } });
}

export function builtInAttachmentStoreFactory(provider: string): AttachmentStoreFactory {
  return (options, context) =>
    createAttachmentStore({ ...context, plugins: { 'attachment.storage': { provider, options } } });
}
