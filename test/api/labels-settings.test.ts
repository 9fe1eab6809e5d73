import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, configPath, createTask, exists, failsWith, okData, readConfig } from '../helpers/envelope';

const DEFAULT_SETTINGS = {
  showPriorityBadges: true,
  showAssignee: true,
  showDueDate: true,
  showLabels: true,
  showFileName: false,
  compactMode: false,
  showDeletedColumn: false,
  defaultPriority: 'medium',
  defaultStatus: 'backlog',
  boardBackgroundMode: 'fancy',
  boardBackgroundPreset: 'aurora',
};

describe('API labels', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
    okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' }), 201);
  });
  afterEach(async () => {
    await server.close();
  });

  async function labelsOf(task: { id: string; boardId: string }): Promise<string[]> {
    return okData(await server.api('GET', `/api/boards/${task.boardId}/tasks/${task.id}`)).labels;
  }

  it('when no label is defined, then the map is empty', async () => {
    assert.deepEqual(okData(await server.api('GET', '/api/labels')), {});
  });

  it('when labels are put, then the map holds their color and group and is saved', async () => {
    okData(await server.api('PUT', '/api/labels/bug', { color: '#ff0000', group: 'Type' }));
    const labels = okData(await server.api('PUT', '/api/labels/needs%20review', { color: '#00f' }));
    assert.deepEqual(labels, { bug: { color: '#ff0000', group: 'Type' }, 'needs review': { color: '#00f' } });
    assert.deepEqual((await readConfig(server)).labels, labels);
    assert.deepEqual(okData(await server.api('GET', '/api/labels')), labels);
  });

  it('when a label is put again, then its color and group are replaced', async () => {
    okData(await server.api('PUT', '/api/labels/bug', { color: '#ff0000', group: 'Type' }));
    assert.deepEqual(okData(await server.api('PUT', '/api/labels/bug', { color: '#111111' })), {
      bug: { color: '#111111' },
    });
  });

  const badPuts: [string, string, unknown, RegExp][] = [
    ['the color is missing', 'bug', {}, /"color"/],
    ['the color is not hex', 'bug', { color: 'red' }, /hex color/],
    ['a field is unknown', 'bug', { color: '#fff', icon: 'x' }, /"icon"/],
    ['the group is not text', 'bug', { color: '#fff', group: 3 }, /group/],
    ['the name is too long', 'x'.repeat(65), { color: '#fff' }, /label name/],
    ['the name holds a control character', 'a%01b', { color: '#fff' }, /label name/],
    ['the name is blank', '%20', { color: '#fff' }, /label name/],
  ];
  for (const [what, name, body, message] of badPuts) {
    it(`when a label is put and ${what}, then 400 and nothing is written`, async () => {
      const before = await fs.readFile(configPath(server), 'utf8');
      failsWith(await server.api('PUT', `/api/labels/${name}`, body), 400, message);
      assert.equal(await fs.readFile(configPath(server), 'utf8'), before);
    });
  }

  it('when a label is renamed, then every card on every board carries the new name, in its file too', async () => {
    okData(await server.api('PUT', '/api/labels/bug', { color: '#ff0000', group: 'Type' }));
    okData(await server.api('PUT', '/api/labels/ui', { color: '#00ff00' }));
    const one = await createTask(server, { content: '# One', labels: ['bug', 'ui'] });
    const two = await createTask(server, { content: '# Two', labels: ['bug'] }, 'ops');
    const three = await createTask(server, { content: '# Three', labels: ['ui'] });
    const labels = okData(await server.api('PATCH', '/api/labels/bug', { newName: 'defect' }));
    assert.deepEqual(Object.keys(labels), ['defect', 'ui'], 'the renamed label keeps its place');
    assert.deepEqual(labels.defect, { color: '#ff0000', group: 'Type' });
    assert.deepEqual(await labelsOf(one), ['defect', 'ui']);
    assert.deepEqual(await labelsOf(two), ['defect']);
    assert.deepEqual(await labelsOf(three), ['ui']);
    const text = await fs.readFile(cardFile(server, 'ops', 'backlog', two.id), 'utf8');
    assert.ok(text.includes('- defect') && !text.includes('- bug'), text);
    assert.deepEqual(
      okData<any[]>(await server.api('GET', '/api/tasks?label=defect')).map((t) => t.id),
      [one.id],
    );
  });

  it('when a label used on cards but never defined is renamed, then the cards follow', async () => {
    const task = await createTask(server, { content: '# Loose', labels: ['loose'] });
    okData(await server.api('PATCH', '/api/labels/loose', { newName: 'tidy' }));
    assert.deepEqual(await labelsOf(task), ['tidy']);
  });

  it('when a label is renamed onto an existing label, then 400 and nothing changes', async () => {
    okData(await server.api('PUT', '/api/labels/bug', { color: '#ff0000' }));
    okData(await server.api('PUT', '/api/labels/defect', { color: '#00ff00' }));
    const task = await createTask(server, { content: '# Card', labels: ['bug'] });
    failsWith(await server.api('PATCH', '/api/labels/bug', { newName: 'defect' }), 400, /already exists/);
    assert.deepEqual(await labelsOf(task), ['bug']);
    assert.deepEqual(Object.keys(okData(await server.api('GET', '/api/labels'))), ['bug', 'defect']);
  });

  it('when a rename is malformed or names an unknown label, then 400', async () => {
    okData(await server.api('PUT', '/api/labels/bug', { color: '#ff0000' }));
    failsWith(await server.api('PATCH', '/api/labels/bug', {}), 400, /newName/);
    failsWith(await server.api('PATCH', '/api/labels/bug', { newName: '' }), 400, /label name/);
    failsWith(await server.api('PATCH', '/api/labels/nothing', { newName: 'x' }), 404, /nothing/);
  });

  it('when a label is deleted, then it leaves the map and every card on every board', async () => {
    okData(await server.api('PUT', '/api/labels/bug', { color: '#ff0000' }));
    const one = await createTask(server, { content: '# One', labels: ['bug', 'ui'] });
    const two = await createTask(server, { content: '# Two', labels: ['bug'] }, 'ops');
    okData(await server.api('DELETE', `/api/boards/ops/tasks/${two.id}`));
    assert.deepEqual(okData(await server.api('DELETE', '/api/labels/bug')), {});
    assert.deepEqual(await labelsOf(one), ['ui']);
    assert.deepEqual(await labelsOf(two), [], 'soft-deleted cards are cleaned too');
    assert.deepEqual((await readConfig(server)).labels, {});
  });

  it('when labels are named like built-in object properties, then they behave like any other name', async () => {
    okData(await server.api('PUT', '/api/labels/__proto__', { color: '#111' }));
    okData(await server.api('PUT', '/api/labels/constructor', { color: '#222' }));
    assert.deepEqual(Object.keys(okData(await server.api('GET', '/api/labels'))), ['__proto__', 'constructor']);
    failsWith(await server.api('PATCH', '/api/labels/toString', { newName: 'x' }), 404, /toString/);
    failsWith(await server.api('DELETE', '/api/labels/hasOwnProperty'), 404, /hasOwnProperty/);
    okData(await server.api('PATCH', '/api/labels/constructor', { newName: 'valueOf' }));
    await server.restart();
    assert.deepEqual(
      okData(await server.api('GET', '/api/labels')),
      JSON.parse('{"__proto__":{"color":"#111"},"valueOf":{"color":"#222"}}'),
    );
  });

  it('when an unknown label is deleted, then 404', async () => {
    failsWith(await server.api('DELETE', '/api/labels/nothing'), 404, /nothing/);
  });
});

describe('API settings', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('when nothing was set, then the defaults come back and no file is written', async () => {
    assert.deepEqual(okData(await server.api('GET', '/api/settings')), DEFAULT_SETTINGS);
    assert.equal(await exists(configPath(server)), false);
  });

  it('when some settings are put, then they merge with the rest and survive a restart', async () => {
    const settings = okData(
      await server.api('PUT', '/api/settings', { compactMode: true, boardBackgroundPreset: 'sand' }),
    );
    assert.deepEqual(settings, { ...DEFAULT_SETTINGS, compactMode: true, boardBackgroundPreset: 'sand' });
    okData(await server.api('PUT', '/api/settings', { showLabels: false }));
    await server.restart();
    assert.deepEqual(okData(await server.api('GET', '/api/settings')), {
      ...DEFAULT_SETTINGS,
      compactMode: true,
      boardBackgroundPreset: 'sand',
      showLabels: false,
    });
    assert.equal((await readConfig(server)).settings.compactMode, true);
  });

  it('when every value of the value lists is put, then each is accepted', async () => {
    for (const boardBackgroundMode of ['fancy', 'plain'])
      okData(await server.api('PUT', '/api/settings', { boardBackgroundMode }));
    for (const boardBackgroundPreset of [
      'aurora',
      'sunset',
      'meadow',
      'nebula',
      'lagoon',
      'candy',
      'ember',
      'violet',
      'paper',
      'mist',
      'sand',
    ]) {
      assert.equal(
        okData(await server.api('PUT', '/api/settings', { boardBackgroundPreset })).boardBackgroundPreset,
        boardBackgroundPreset,
      );
    }
    for (const defaultPriority of ['critical', 'high', 'medium', 'low'])
      okData(await server.api('PUT', '/api/settings', { defaultPriority }));
  });

  it('when the workspace defaults change in a new workspace, then new cards on the default board use them', async () => {
    assert.deepEqual(
      [(await createTask(server, 'Before')).status, (await createTask(server, 'Before 2')).priority],
      ['backlog', 'medium'],
    );
    okData(await server.api('PUT', '/api/settings', { defaultStatus: 'review', defaultPriority: 'low' }));
    const task = await createTask(server, 'After');
    assert.deepEqual([task.status, task.priority], ['review', 'low']);
  });

  it('when a board sets its own defaults, then they win over the workspace settings', async () => {
    okData(await server.api('PUT', '/api/settings', { defaultStatus: 'review', defaultPriority: 'low' }));
    okData(await server.api('PUT', '/api/boards/default', { defaultStatus: 'todo', defaultPriority: 'critical' }));
    const task = await createTask(server, 'Board wins');
    assert.deepEqual([task.status, task.priority], ['todo', 'critical']);
  });

  it('when the workspace defaults change, then a board without its own defaults uses them', async () => {
    okData(await server.api('PUT', '/api/settings', { defaultStatus: 'todo', defaultPriority: 'high' }));
    okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' }), 201);
    const task = await createTask(server, 'Workspace defaults', 'ops');
    assert.deepEqual([task.status, task.priority], ['todo', 'high']);
  });

  const invalid: [string, Record<string, unknown>, RegExp][] = [
    ...[
      'showPriorityBadges',
      'showAssignee',
      'showDueDate',
      'showLabels',
      'showFileName',
      'compactMode',
      'showDeletedColumn',
    ].map((key): [string, Record<string, unknown>, RegExp] => [
      `${key} is the text "true"`,
      { [key]: 'true' },
      new RegExp(key),
    ]),
    ['defaultPriority is outside the list', { defaultPriority: 'urgent' }, /defaultPriority/],
    ['boardBackgroundMode is outside the list', { boardBackgroundMode: 'dark' }, /boardBackgroundMode/],
    ['boardBackgroundPreset is outside the list', { boardBackgroundPreset: 'neon' }, /boardBackgroundPreset/],
    ['defaultStatus is a number', { defaultStatus: 3 }, /defaultStatus/],
    ['defaultStatus is not a column id', { defaultStatus: '../In Progress' }, /defaultStatus/],
    ['a setting is unknown', { darkMode: true }, /darkMode/],
    ['one good and one bad value are sent', { compactMode: true, boardBackgroundMode: 'dark' }, /boardBackgroundMode/],
  ];
  for (const [what, body, message] of invalid) {
    it(`when ${what}, then 400 and nothing is written`, async () => {
      failsWith(await server.api('PUT', '/api/settings', body), 400, message);
      assert.equal(await exists(configPath(server)), false);
      assert.deepEqual(okData(await server.api('GET', '/api/settings')), DEFAULT_SETTINGS);
    });
  }

  it('when the body is not an object, then 400', async () => {
    failsWith(await server.api('PUT', '/api/settings', ['compactMode']), 400, /object/);
  });
});

describe('API resolve-path', () => {
  let server: TestServer;
  let realRoot: string;
  before(async () => {
    server = await startTestServer();
    realRoot = await fs.realpath(server.root);
    await fs.mkdir(path.join(server.root, 'docs'));
  });
  after(async () => {
    await server.close();
  });

  it('when a workspace-relative path is given, then its absolute form inside the workspace comes back', async () => {
    const answer = okData(await server.api('GET', '/api/resolve-path?path=docs'));
    assert.deepEqual(answer, { input: 'docs', path: path.join(realRoot, 'docs'), exists: true });
  });

  it('when the path does not exist, then it is still resolved and marked missing, and nothing is created', async () => {
    const answer = okData(await server.api('GET', '/api/resolve-path?path=notes%2Fplan.md'));
    assert.equal(answer.exists, false);
    assert.equal(path.resolve(answer.path), path.resolve(server.root, 'notes/plan.md'));
    assert.equal(await exists(path.join(server.root, 'notes')), false);
  });

  it('when the path starts with ~, then it is taken from the home folder', async () => {
    const home = await fs.realpath(os.homedir());
    assert.equal(okData(await server.api('GET', '/api/resolve-path?path=~')).path, home);
    assert.equal(
      path.resolve(okData(await server.api('GET', '/api/resolve-path?path=~%2Fnot-there-xyz')).path),
      path.join(os.homedir(), 'not-there-xyz'),
    );
  });

  it('when an absolute path is given, then its canonical form comes back', async () => {
    const answer = okData(
      await server.api(
        'GET',
        `/api/resolve-path?path=${encodeURIComponent(path.join(server.root, 'docs', '..', 'docs'))}`,
      ),
    );
    assert.equal(answer.path, path.join(realRoot, 'docs'));
  });

  it('when path is missing, empty or given twice, then 400', async () => {
    failsWith(await server.api('GET', '/api/resolve-path'), 400, /path/);
    failsWith(await server.api('GET', '/api/resolve-path?path='), 400, /path/);
    failsWith(await server.api('GET', '/api/resolve-path?path=a&path=b'), 400, /path/);
  });
});
