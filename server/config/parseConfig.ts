import { DEFAULT_SETTINGS, STANDARD_COLUMNS, defaultBoard } from '../core/defaults';
import {
  DEFAULT_COLUMN_COLOR,
  type BoardConfig,
  type Column,
  type LabelDefinition,
  type Settings,
} from '../core/model';
import {
  BACKGROUND_MODES,
  BACKGROUND_PRESETS,
  PRIORITIES,
  RESERVED_STATUS_IDS,
  WIP_POLICIES,
} from '../core/shapes/vocabulary';
import { isValidSlugId } from '../core/ids';
import type { FormConfig, KanbanConfig, PluginEntry, ServerSettings, WebhookConfig } from './types';
import { viewProblem, type SavedView } from '../core/savedViews';
import { originProblem } from './origins';

/** A problem in `.kanban.json`, located by a JSON path such as `$.boards[1].columns[0].id`. */
export class ConfigError extends Error {
  constructor(
    readonly jsonPath: string,
    readonly problem: string,
    /** The 1-based line of the text, when known (JSON syntax errors and git conflict markers). */
    readonly line?: number,
  ) {
    super(`${jsonPath}: ${problem}`);
  }
}

const KNOWN_KEYS = new Set([
  'version',
  'defaultBoard',
  'boards',
  'settings',
  'labels',
  'forms',
  'webhooks',
  'views',
  'plugins',
  'storage',
  'server',
  // version 1 layout
  'columns',
  'defaultStatus',
  'defaultPriority',
  'minimizedColumnIds',
  'actions',
]);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function expectObject(value: unknown, where: string): Json {
  if (!isObject(value)) throw new ConfigError(where, 'must be an object');
  return value;
}

function expectString(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new ConfigError(where, 'must be a string');
  return value;
}

function optionalString(value: unknown, where: string): string | undefined {
  return value === undefined ? undefined : expectString(value, where);
}

function parseColumns(value: unknown, where: string): Column[] {
  if (!Array.isArray(value)) throw new ConfigError(where, 'must be an array of columns');
  const seen = new Set<string>();
  return value.map((raw, i) => {
    const at = `${where}[${i}]`;
    const column = expectObject(raw, at);
    const id = expectString(column.id, `${at}.id`);
    if (!isValidSlugId(id)) throw new ConfigError(`${at}.id`, `"${id}" is not a valid column id`);
    if (RESERVED_STATUS_IDS.includes(id))
      throw new ConfigError(
        `${at}.id`,
        `"${id}" is reserved (${RESERVED_STATUS_IDS.join(' and ')} are built-in folders); rename the column`,
      );
    if (seen.has(id)) throw new ConfigError(`${at}.id`, `duplicate column id "${id}"`);
    seen.add(id);
    const name = column.name === undefined ? id : expectString(column.name, `${at}.name`);
    const color = column.color === undefined ? DEFAULT_COLUMN_COLOR : expectString(column.color, `${at}.color`);
    const wipLimit = optionalCount(column.wipLimit, `${at}.wipLimit`);
    return { id, name, color, ...(wipLimit === undefined ? {} : { wipLimit }) };
  });
}

/** A whole number of at least 1 (a WIP limit, a number of days), or absent. */
function optionalCount(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new ConfigError(where, 'must be a whole number, 1 or more');
  return value;
}

function parseWipPolicy(value: unknown, where: string): BoardConfig['wipPolicy'] {
  if (value === undefined) return undefined;
  if (!WIP_POLICIES.includes(value as never)) throw new ConfigError(where, `must be one of ${WIP_POLICIES.join(', ')}`);
  return value as BoardConfig['wipPolicy'];
}

function parsePriority(value: unknown, where: string) {
  if (value === undefined) return undefined;
  if (!PRIORITIES.includes(value as never)) throw new ConfigError(where, `must be one of ${PRIORITIES.join(', ')}`);
  return value as BoardConfig['defaultPriority'];
}

function parseStringMap(value: unknown, where: string): Record<string, string> {
  if (value === undefined) return {};
  const map = expectObject(value, where);
  for (const [key, title] of Object.entries(map)) expectString(title, `${where}.${key}`);
  return { ...(map as Record<string, string>) };
}

function parseIdList(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigError(where, 'must be an array of strings');
  return value.map((v, i) => expectString(v, `${where}[${i}]`));
}

function parseBoard(raw: unknown, where: string, fallbackId?: string): BoardConfig {
  const board = expectObject(raw, where);
  const id = board.id === undefined && fallbackId ? fallbackId : expectString(board.id, `${where}.id`);
  if (!isValidSlugId(id)) throw new ConfigError(`${where}.id`, `"${id}" is not a valid board id`);
  const columns =
    board.columns === undefined
      ? STANDARD_COLUMNS.map((c) => ({ ...c }))
      : parseColumns(board.columns, `${where}.columns`);
  const startStatus = parseStartStatus(board.startStatus, columns, id, `${where}.startStatus`);
  const pickFrom = parsePickFrom(board.pickFrom, columns, id, `${where}.pickFrom`);
  return {
    id,
    name: board.name === undefined ? id : expectString(board.name, `${where}.name`),
    description: optionalString(board.description, `${where}.description`),
    columns,
    defaultStatus: optionalString(board.defaultStatus, `${where}.defaultStatus`),
    ...(startStatus === undefined ? {} : { startStatus }),
    ...(pickFrom === undefined ? {} : { pickFrom }),
    defaultPriority: parsePriority(board.defaultPriority, `${where}.defaultPriority`),
    actions: parseStringMap(board.actions, `${where}.actions`),
    minimizedColumnIds: parseIdList(board.minimizedColumnIds, `${where}.minimizedColumnIds`),
    ...optionalBoardFields(board, where),
  };
}

/**
 * `startStatus` must name a column of its board: unlike a default status, which falls back to the
 * workspace setting, nothing would catch a typo here until someone starts a card.
 */
/** `pickFrom`, like `startStatus`, names columns of its board, at least one, none twice. */
function parsePickFrom(value: unknown, columns: Column[], boardId: string, where: string): string[] | undefined {
  if (value === undefined) return undefined;
  const ids = parseIdList(value, where);
  if (ids.length === 0)
    throw new ConfigError(
      where,
      'must name at least one column (leave it out to pick from the columns before the start column)',
    );
  ids.forEach((status, i) => {
    if (!columns.some((c) => c.id === status))
      throw new ConfigError(
        `${where}[${i}]`,
        `"${status}" is not a column of board "${boardId}" (columns: ${columns.map((c) => c.id).join(', ') || 'none'})`,
      );
    if (ids.indexOf(status) !== i) throw new ConfigError(`${where}[${i}]`, `"${status}" is listed twice`);
  });
  return ids;
}

function parseStartStatus(value: unknown, columns: Column[], boardId: string, where: string): string | undefined {
  const status = optionalString(value, where);
  if (status !== undefined && !columns.some((c) => c.id === status)) {
    throw new ConfigError(
      where,
      `"${status}" is not a column of board "${boardId}" (columns: ${columns.map((c) => c.id).join(', ') || 'none'})`,
    );
  }
  return status;
}

/** Board keys kept out of the object when absent, so a config without them round-trips unchanged. */
function optionalBoardFields(board: Json, where: string): Pick<BoardConfig, 'wipPolicy' | 'autoArchiveDays'> {
  const out: Pick<BoardConfig, 'wipPolicy' | 'autoArchiveDays'> = {};
  const wipPolicy = parseWipPolicy(board.wipPolicy, `${where}.wipPolicy`);
  if (wipPolicy !== undefined) out.wipPolicy = wipPolicy;
  const autoArchiveDays = optionalCount(board.autoArchiveDays, `${where}.autoArchiveDays`);
  if (autoArchiveDays !== undefined) out.autoArchiveDays = autoArchiveDays;
  return out;
}

function parseBoards(value: unknown): BoardConfig[] {
  if (value === undefined) return [defaultBoard()];
  // The older layout kept boards in an object keyed by id.
  if (isObject(value)) return Object.entries(value).map(([id, raw]) => parseBoard(raw, `$.boards.${id}`, id));
  if (!Array.isArray(value)) throw new ConfigError('$.boards', 'must be an array of boards');
  const boards = value.map((raw, i) => parseBoard(raw, `$.boards[${i}]`));
  const seen = new Set<string>();
  boards.forEach((board, i) => {
    if (seen.has(board.id)) throw new ConfigError(`$.boards[${i}].id`, `duplicate board id "${board.id}"`);
    seen.add(board.id);
  });
  return boards;
}

/** The settings checks, shared by config loading and `PUT /settings`. */
export function settingsProblem(key: string, value: unknown): string | null {
  if (!Object.hasOwn(DEFAULT_SETTINGS, key)) return `unknown setting "${key}"`;
  const expected = (DEFAULT_SETTINGS as unknown as Json)[key];
  if (typeof value !== typeof expected) return `"${key}" must be a ${typeof expected}`;
  if (key === 'defaultPriority' && !PRIORITIES.includes(value as never))
    return `"defaultPriority" must be one of ${PRIORITIES.join(', ')}`;
  if (key === 'boardBackgroundMode' && !BACKGROUND_MODES.includes(value as never))
    return `"boardBackgroundMode" must be one of ${BACKGROUND_MODES.join(', ')}`;
  if (key === 'boardBackgroundPreset' && !BACKGROUND_PRESETS.includes(value as never))
    return `"boardBackgroundPreset" must be one of ${BACKGROUND_PRESETS.join(', ')}`;
  return null;
}

function parseSettings(value: unknown): Settings {
  const settings: Settings = { ...DEFAULT_SETTINGS };
  if (value === undefined) return settings;
  for (const [key, v] of Object.entries(expectObject(value, '$.settings'))) {
    const problem = settingsProblem(key, v);
    // Settings written by newer versions are ignored rather than fatal.
    if (problem && problem.startsWith('unknown')) continue;
    if (problem) throw new ConfigError(`$.settings.${key}`, problem);
    (settings as unknown as Json)[key] = v;
  }
  return settings;
}

function parseLabels(value: unknown): Record<string, LabelDefinition> {
  if (value === undefined) return {};
  // Built from entries so a key such as "__proto__" stays a plain key.
  return Object.fromEntries(
    Object.entries(expectObject(value, '$.labels')).map(([name, raw]) => {
      const at = `$.labels.${name}`;
      const label = expectObject(raw, at);
      const color = expectString(label.color, `${at}.color`);
      const group = optionalString(label.group, `${at}.group`);
      return [name, group === undefined ? { color } : { color, group }];
    }),
  );
}

function parseForms(value: unknown): Record<string, FormConfig> {
  if (value === undefined) return {};
  return Object.fromEntries(
    Object.entries(expectObject(value, '$.forms')).map(([id, raw]) => {
      const form = expectObject(raw, `$.forms.${id}`);
      expectObject(form.schema, `$.forms.${id}.schema`);
      if (form.data !== undefined) expectObject(form.data, `$.forms.${id}.data`);
      return [id, form as unknown as FormConfig];
    }),
  );
}

function parseWebhooks(value: unknown): WebhookConfig[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigError('$.webhooks', 'must be an array');
  return value.map((raw, i) => {
    const at = `$.webhooks[${i}]`;
    const hook = expectObject(raw, at);
    const events = parseIdList(hook.events, `${at}.events`);
    return {
      id: expectString(hook.id, `${at}.id`),
      url: expectString(hook.url, `${at}.url`),
      events,
      ...(hook.secret === undefined ? {} : { secret: expectString(hook.secret, `${at}.secret`) }),
      active: hook.active === undefined ? true : hook.active === true,
    };
  });
}

function parsePlugins(plugins: unknown, legacyStorage: unknown): Record<string, PluginEntry> {
  const result: Record<string, PluginEntry> = {};
  const take = (value: unknown, where: string, optionsKey: 'options' | 'config') => {
    if (value === undefined) return;
    for (const [namespace, raw] of Object.entries(expectObject(value, where))) {
      const entry = expectObject(raw, `${where}.${namespace}`);
      const provider = expectString(entry.provider, `${where}.${namespace}.provider`);
      const options = entry[optionsKey] ?? entry.options ?? {};
      result[namespace] = { provider, options: expectObject(options, `${where}.${namespace}.${optionsKey}`) };
    }
  };
  take(legacyStorage, '$.storage', 'config');
  take(plugins, '$.plugins', 'options');
  return result;
}

function parseServer(value: unknown): ServerSettings | undefined {
  if (value === undefined) return undefined;
  const server = expectObject(value, '$.server');
  const origins = server.allowedOrigins;
  if (origins === undefined) return { ...server };
  const where = '$.server.allowedOrigins';
  if (!Array.isArray(origins))
    throw new ConfigError(where, 'must be an array of origins such as ["https://example.com"]');
  origins.forEach((origin, i) => {
    const problem = originProblem(expectString(origin, `${where}[${i}]`));
    if (problem) throw new ConfigError(`${where}[${i}]`, problem);
  });
  return { ...server, allowedOrigins: [...origins] };
}

/** Version 1 kept a single board's columns and defaults at the top level. */
function upgradeVersion1(doc: Json): Json {
  if (doc.boards !== undefined || doc.columns === undefined) return doc;
  const board = {
    id: 'default',
    name: 'Default',
    columns: doc.columns,
    defaultStatus: doc.defaultStatus,
    defaultPriority: doc.defaultPriority,
    actions: doc.actions,
    minimizedColumnIds: doc.minimizedColumnIds,
  };
  return { ...doc, boards: [board] };
}

/** Where a JSON text stops parsing, so a person can go straight there. */
function jsonErrorLine(text: string, error: Error): { line?: number; note: string } {
  // Git conflict markers are the usual cause after a merge; name them.
  const marker = text.split('\n').findIndex((line) => /^(<{7}|={7}|>{7})( |$)/.test(line));
  if (marker >= 0) return { line: marker + 1, note: ` at line ${marker + 1} (a git conflict marker)` };
  const position = /position (\d+)/.exec(error.message);
  if (!position) return { note: '' };
  const line = text.slice(0, Number(position[1])).split('\n').length;
  return { line, note: ` at line ${line}` };
}

/** Parse and validate the text of `.kanban.json`, upgrading older layouts in memory. */
export function parseConfig(text: string): KanbanConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const { line, note } = jsonErrorLine(text, error as Error);
    throw new ConfigError('$', `not valid JSON${note} (${(error as Error).message})`, line);
  }
  let doc = expectObject(raw, '$');
  if (doc.version !== undefined && doc.version !== 1 && doc.version !== 2) {
    throw new ConfigError('$.version', `unsupported version ${JSON.stringify(doc.version)} (expected 1 or 2)`);
  }
  doc = upgradeVersion1(doc);
  const boards = parseBoards(doc.boards);
  const defaultBoardId =
    doc.defaultBoard === undefined ? (boards[0]?.id ?? 'default') : expectString(doc.defaultBoard, '$.defaultBoard');
  if (!boards.some((b) => b.id === defaultBoardId)) {
    throw new ConfigError('$.defaultBoard', `names board "${defaultBoardId}", which is not in $.boards`);
  }
  const extra: Json = {};
  for (const [key, value] of Object.entries(doc)) if (!KNOWN_KEYS.has(key)) extra[key] = value;
  return {
    version: 2,
    defaultBoard: defaultBoardId,
    boards,
    settings: parseSettings(doc.settings),
    labels: parseLabels(doc.labels),
    forms: parseForms(doc.forms),
    webhooks: parseWebhooks(doc.webhooks),
    views: parseViews(
      doc.views,
      boards.map((b) => b.id),
    ),
    plugins: parsePlugins(doc.plugins, doc.storage),
    ...(doc.server === undefined ? {} : { server: parseServer(doc.server) }),
    extra,
  };
}

export function defaultConfig(): KanbanConfig {
  return {
    version: 2,
    defaultBoard: 'default',
    boards: [defaultBoard()],
    settings: { ...DEFAULT_SETTINGS },
    labels: {},
    forms: {},
    webhooks: [],
    views: [],
    plugins: {},
    extra: {},
  };
}

/** The version 2 text of a config: stable key order, two-space indent, trailing newline. */
export function serializeConfig(config: KanbanConfig): string {
  const boards = config.boards.map((b) => {
    const out: Json = { id: b.id, name: b.name };
    if (b.description !== undefined) out.description = b.description;
    out.columns = b.columns;
    if (b.defaultStatus !== undefined) out.defaultStatus = b.defaultStatus;
    if (b.startStatus !== undefined) out.startStatus = b.startStatus;
    if (b.pickFrom !== undefined) out.pickFrom = b.pickFrom;
    if (b.defaultPriority !== undefined) out.defaultPriority = b.defaultPriority;
    if (Object.keys(b.actions).length) out.actions = b.actions;
    if (b.minimizedColumnIds.length) out.minimizedColumnIds = b.minimizedColumnIds;
    if (b.wipPolicy !== undefined) out.wipPolicy = b.wipPolicy;
    if (b.autoArchiveDays !== undefined) out.autoArchiveDays = b.autoArchiveDays;
    return out;
  });
  const doc: Json = {
    version: 2,
    defaultBoard: config.defaultBoard,
    boards,
    settings: config.settings,
    labels: config.labels,
  };
  if (Object.keys(config.forms).length) doc.forms = config.forms;
  if (config.webhooks.length) doc.webhooks = config.webhooks;
  if (config.views.length) doc.views = config.views;
  if (Object.keys(config.plugins).length) doc.plugins = config.plugins;
  if (config.server !== undefined) doc.server = config.server;
  return JSON.stringify({ ...doc, ...config.extra }, null, 2) + '\n';
}

/**
 * Saved views. Their filter keys are checked against the list route when a view is used (that
 * list belongs to the API layer); here only the shape and the board, so a typo in a hand edit is
 * named with its JSON path instead of failing later.
 */
function parseViews(value: unknown, boardIds: string[]): SavedView[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigError('$.views', 'must be an array of views');
  const seen = new Set<string>();
  return value.map((raw, i) => {
    const at = `$.views[${i}]`;
    const entry = expectObject(raw, at);
    const id = expectString(entry.id, `${at}.id`);
    if (!isValidSlugId(id)) throw new ConfigError(`${at}.id`, `"${id}" is not a valid view id (a-z, 0-9, - and _)`);
    if (seen.has(id)) throw new ConfigError(`${at}.id`, `duplicate view id "${id}"`);
    seen.add(id);
    const view: SavedView = {
      id,
      name: entry.name === undefined ? id : expectString(entry.name, `${at}.name`),
      board: expectString(entry.board, `${at}.board`),
      layout: (entry.layout ?? 'board') as SavedView['layout'],
      filter: entry.filter === undefined ? {} : (expectObject(entry.filter, `${at}.filter`) as SavedView['filter']),
      sort: entry.sort === undefined ? '' : expectString(entry.sort, `${at}.sort`),
      groupBy:
        entry.groupBy === undefined || entry.groupBy === null ? null : expectString(entry.groupBy, `${at}.groupBy`),
    };
    const problem = viewProblem(view, boardIds);
    if (problem) throw new ConfigError(`${at}.${problem.field}`, problem.problem);
    return view;
  });
}
