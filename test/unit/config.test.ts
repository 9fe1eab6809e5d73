import { strict as assert } from 'node:assert';
import {
  ConfigError,
  defaultConfig,
  parseConfig,
  serializeConfig,
  settingsProblem,
} from '../../server/config/parseConfig';
import { STANDARD_COLUMNS } from '../../server/core/defaults';
import { isValidSlugId } from '../../server/core/ids';

function problemOf(text: string): ConfigError {
  try {
    parseConfig(text);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  assert.fail(`expected ${text} to be refused`);
}

const olderLayout = {
  version: 1,
  columns: [
    { id: 'todo', name: 'To Do', color: '#3b82f6' },
    { id: 'doing', name: 'Doing' },
    { id: 'done', name: 'Done', color: '#22c55e' },
  ],
  defaultStatus: 'doing',
  storage: { 'card.storage': { provider: 'markdown', config: { note: 'kept' } } },
};

describe('config: defaults', () => {
  it('when there is no config, then one default board has the five standard columns and follows the backlog/medium settings', () => {
    const config = defaultConfig();
    assert.equal(config.defaultBoard, 'default');
    assert.deepEqual(
      config.boards.map((b) => b.id),
      ['default'],
    );
    assert.deepEqual(
      config.boards[0].columns.map((c) => [c.id, c.color]),
      [
        ['backlog', '#6b7280'],
        ['todo', '#3b82f6'],
        ['in-progress', '#f59e0b'],
        ['review', '#8b5cf6'],
        ['done', '#22c55e'],
      ],
    );
    assert.equal(config.boards[0].defaultStatus, undefined, 'the board inherits the workspace setting');
    assert.equal(config.boards[0].defaultPriority, undefined, 'the board inherits the workspace setting');
    assert.equal(config.settings.defaultStatus, 'backlog');
    assert.equal(config.settings.defaultPriority, 'medium');
  });

  it('when the file is an empty object, then it reads as the defaults', () => {
    const config = parseConfig('{}');
    assert.equal(config.version, 2);
    assert.deepEqual(config.boards[0].columns, STANDARD_COLUMNS);
    assert.deepEqual(config.settings, defaultConfig().settings);
  });
});

describe('config: the older layout', () => {
  it('when the file has top-level columns, then they become the columns of the default board', () => {
    const config = parseConfig(JSON.stringify(olderLayout));
    assert.equal(config.version, 2);
    assert.equal(config.defaultBoard, 'default');
    assert.equal(config.boards.length, 1);
    assert.deepEqual(config.boards[0].columns, [
      { id: 'todo', name: 'To Do', color: '#3b82f6' },
      { id: 'doing', name: 'Doing', color: '#6b7280' },
      { id: 'done', name: 'Done', color: '#22c55e' },
    ]);
    assert.equal(config.boards[0].defaultStatus, 'doing');
  });

  it('when the file has "storage" with "config", then it reads as plugins with options', () => {
    const config = parseConfig(JSON.stringify(olderLayout));
    assert.deepEqual(config.plugins, { 'card.storage': { provider: 'markdown', options: { note: 'kept' } } });
  });

  it('when an upgraded config is written, then it is version 2 with boards and plugins and no top-level columns or storage', () => {
    const written = JSON.parse(serializeConfig(parseConfig(JSON.stringify(olderLayout))));
    assert.equal(written.version, 2);
    assert.deepEqual(
      written.boards[0].columns.map((c: { id: string }) => c.id),
      ['todo', 'doing', 'done'],
    );
    assert.equal(written.boards[0].defaultStatus, 'doing');
    assert.deepEqual(written.plugins, { 'card.storage': { provider: 'markdown', options: { note: 'kept' } } });
    for (const key of ['columns', 'storage', 'defaultStatus'])
      assert.ok(!(key in written), `${key} left at the top level`);
  });

  it('when boards are kept in an object keyed by id, then each key becomes the board id', () => {
    const config = parseConfig(
      JSON.stringify({
        boards: { main: { name: 'Main' }, ops: { name: 'Ops', columns: [{ id: 'new', name: 'New' }] } },
        defaultBoard: 'ops',
      }),
    );
    assert.deepEqual(
      config.boards.map((b) => [b.id, b.name]),
      [
        ['main', 'Main'],
        ['ops', 'Ops'],
      ],
    );
    assert.equal(config.defaultBoard, 'ops');
  });
});

describe('config: writing', () => {
  it('when a config is written and read back, then it is the same', () => {
    const config = parseConfig(
      JSON.stringify({
        version: 2,
        defaultBoard: 'b',
        boards: [
          { id: 'a', name: 'A', description: 'first', actions: { go: 'Go' }, minimizedColumnIds: ['todo'] },
          { id: 'b', name: 'B', defaultPriority: 'high' },
        ],
        settings: { compactMode: true, boardBackgroundPreset: 'sand' },
        labels: { bug: { color: '#ff0000', group: 'type' } },
        forms: { triage: { schema: { type: 'object' } } },
        webhooks: [{ id: 'wh_0123456789abcdef', url: 'http://127.0.0.1:1/x', events: ['*'], secret: 's' }],
        plugins: { 'card.storage': { provider: 'sqlite', options: { sqlitePath: '.kanban/k.db' } } },
      }),
    );
    assert.deepEqual(parseConfig(serializeConfig(config)), config);
  });

  it('when keys are unknown to us, then they survive a write unchanged', () => {
    const config = parseConfig(
      JSON.stringify({ version: 2, myTool: { keep: [1, 2] }, settings: { futureSetting: 1 } }),
    );
    const written = JSON.parse(serializeConfig(config));
    assert.deepEqual(written.myTool, { keep: [1, 2] });
  });

  it('when a value is an ${ENV} reference, then it is written back as the reference', () => {
    const text = JSON.stringify({
      plugins: { 'card.storage': { provider: 'mysql', options: { database: 'k', password: '${DB_PASSWORD}' } } },
    });
    process.env.DB_PASSWORD = 'secret-value';
    try {
      const written = serializeConfig(parseConfig(text));
      assert.ok(written.includes('"password": "${DB_PASSWORD}"'), written);
      assert.ok(!written.includes('secret-value'));
    } finally {
      delete process.env.DB_PASSWORD;
    }
  });

  it('when a config is written, then keys come in a fixed order with two-space indent and a final newline', () => {
    const text = serializeConfig(defaultConfig());
    assert.deepEqual(Object.keys(JSON.parse(text)), ['version', 'defaultBoard', 'boards', 'settings', 'labels']);
    assert.ok(text.startsWith('{\n  "version": 2,\n'));
    assert.ok(text.endsWith('}\n'));
  });
});

describe('config: validation', () => {
  const cases: [string, unknown, string, RegExp][] = [
    ['the text is not JSON', '{"version": 2,', '$', /not valid JSON/],
    ['the top level is an array', [], '$', /must be an object/],
    ['the version is from the future', { version: 3 }, '$.version', /unsupported version 3/],
    ['boards is a string', { boards: 'x' }, '$.boards', /array/],
    ['a board id is not a valid id', { boards: [{ id: '../x', name: 'X' }] }, '$.boards[0].id', /not a valid board id/],
    ['two boards share an id', { boards: [{ id: 'a' }, { id: 'a' }] }, '$.boards[1].id', /duplicate board id/],
    [
      'defaultBoard names no board',
      { boards: [{ id: 'a' }], defaultBoard: 'b' },
      '$.defaultBoard',
      /not in \$\.boards/,
    ],
    [
      'a column id is uppercase',
      { boards: [{ id: 'a', columns: [{ id: 'Todo' }] }] },
      '$.boards[0].columns[0].id',
      /not a valid column id/,
    ],
    [
      'a column is called deleted',
      { boards: [{ id: 'a', columns: [{ id: 'deleted' }] }] },
      '$.boards[0].columns[0].id',
      /"deleted" is reserved/,
    ],
    [
      'a column is called archived',
      { boards: [{ id: 'a', columns: [{ id: 'backlog' }, { id: 'archived' }] }] },
      '$.boards[0].columns[1].id',
      /"archived" is reserved .*rename the column/,
    ],
    [
      'a WIP limit is not a whole number',
      { boards: [{ id: 'a', columns: [{ id: 'doing', wipLimit: '3' }] }] },
      '$.boards[0].columns[0].wipLimit',
      /whole number, 1 or more/,
    ],
    [
      'a board has an unknown wipPolicy',
      { boards: [{ id: 'a', wipPolicy: 'strict' }] },
      '$.boards[0].wipPolicy',
      /warn, block/,
    ],
    [
      'autoArchiveDays is negative',
      { boards: [{ id: 'a', autoArchiveDays: -1 }] },
      '$.boards[0].autoArchiveDays',
      /whole number, 1 or more/,
    ],
    [
      'two columns share an id',
      { boards: [{ id: 'a', columns: [{ id: 'x' }, { id: 'x' }] }] },
      '$.boards[0].columns[1].id',
      /duplicate column id/,
    ],
    [
      'a board priority is unknown',
      { boards: [{ id: 'a', defaultPriority: 'urgent' }] },
      '$.boards[0].defaultPriority',
      /must be one of/,
    ],
    [
      'a setting has the wrong type',
      { settings: { compactMode: 'yes' } },
      '$.settings.compactMode',
      /must be a boolean/,
    ],
    [
      'a setting has a value outside its list',
      { settings: { boardBackgroundPreset: 'neon' } },
      '$.settings.boardBackgroundPreset',
      /must be one of/,
    ],
    ['a label has no color', { labels: { bug: {} } }, '$.labels.bug.color', /must be a string/],
    [
      'a plugin has no provider',
      { plugins: { 'card.storage': {} } },
      '$.plugins.card.storage.provider',
      /must be a string/,
    ],
    [
      'older storage config is not an object',
      { storage: { 'card.storage': { provider: 'x', config: 5 } } },
      '$.storage.card.storage.config',
      /must be an object/,
    ],
    ['a webhook has no url', { webhooks: [{ id: 'wh_1', events: ['*'] }] }, '$.webhooks[0].url', /must be a string/],
  ];
  for (const [what, input, jsonPath, problem] of cases) {
    it(`when ${what}, then the problem is named at ${jsonPath}`, () => {
      const error = problemOf(typeof input === 'string' ? input : JSON.stringify(input));
      assert.equal(error.jsonPath, jsonPath);
      assert.match(error.problem, problem);
    });
  }

  it('when labels, forms or settings use keys such as __proto__, then they stay plain keys and no prototype changes', () => {
    const config = parseConfig(
      '{"labels":{"__proto__":{"color":"#111"}},"forms":{"__proto__":{"schema":{}}},"settings":{"__proto__":{"compactMode":true}}}',
    );
    assert.deepEqual(Object.keys(config.labels), ['__proto__']);
    assert.deepEqual(Object.keys(config.forms), ['__proto__']);
    assert.equal(Object.getPrototypeOf(config.labels), Object.prototype);
    assert.equal(Object.getPrototypeOf(config.settings), Object.prototype);
    assert.equal(config.settings.compactMode, false);
    assert.ok(serializeConfig(config).includes('"__proto__": {\n      "color": "#111"'));
  });

  it('when a setting is unknown, then it is ignored rather than fatal', () => {
    assert.equal(
      parseConfig(JSON.stringify({ settings: { fromTheFuture: true, compactMode: true } })).settings.compactMode,
      true,
    );
  });

  it('when settings values are checked, then each kind of mistake has its own message', () => {
    assert.equal(settingsProblem('compactMode', true), null);
    assert.match(settingsProblem('compactMode', 1) ?? '', /must be a boolean/);
    assert.match(settingsProblem('defaultPriority', 'urgent') ?? '', /critical, high, medium, low/);
    assert.match(settingsProblem('boardBackgroundMode', 'dark') ?? '', /fancy, plain/);
    assert.match(settingsProblem('nope', 1) ?? '', /unknown setting/);
  });
});

describe('config: the board and column id rule', () => {
  it('when an id is lowercase letters, digits, - or _ and starts with a letter or digit, then it is accepted', () => {
    for (const id of ['a', 'default', 'in-progress', 'q3_2026', '0day', 'x'.repeat(64)])
      assert.ok(isValidSlugId(id), id);
  });

  it('when an id has uppercase, dots, slashes, encodings, spaces or a leading dash, or is too long, then it is refused', () => {
    for (const id of ['', 'Todo', '../x', '..', '%2e%2e', 'a/b', 'a b', '-a', '_a', 'a.b', 'x'.repeat(65), 'ünï']) {
      assert.equal(isValidSlugId(id), false, id);
    }
  });
});
