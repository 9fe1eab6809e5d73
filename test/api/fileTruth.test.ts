import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startServer, type RunningServer } from '../../server/server';
import type { ServiceEvent } from '../../server/core/events';
import { makeTempDir } from '../helpers/testServer';
import { failsWith, okData } from '../helpers/envelope';

/**
 * The files are the truth: a write never replaces a card file or `.kanban.json` that changed on
 * disk since the service read it, nor one that does not parse. These servers do not watch, so
 * the write always meets the hand edit before any watcher could adopt it.
 */
describe('file truth: hand edits are never overwritten', () => {
  let root: string;
  let running: RunningServer;
  const api = async (method: string, urlPath: string, body?: unknown) => {
    const response = await fetch(running.url + urlPath, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json().catch(() => null), headers: response.headers };
  };
  const fileOf = (id: string, status = 'backlog') =>
    path.join(root, '.kanban', 'boards', 'default', status, `${id}.md`);
  const create = async (title: string) => okData(await api('POST', '/api/tasks', { content: `# ${title}\n` }), 201);

  beforeEach(async () => {
    root = await makeTempDir();
    running = await startServer({ root, port: 0, watch: false });
  });
  afterEach(async () => {
    await running.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('when a card file was edited by hand, then an API write answers 409 naming it, the edit survives and an event announces it', async () => {
    const task = await create('Hand edited');
    const file = fileOf(task.id);
    await fs.appendFile(file, 'A line typed in the editor.\n');
    const events: ServiceEvent[] = [];
    const off = running.workspace.events.on((e) => events.push(e));
    const error = failsWith(await api('PUT', `/api/tasks/${task.id}`, { priority: 'high' }), 409, /changed on disk/);
    off();
    assert.match(error, new RegExp(`${task.id}\\.md`));
    const text = await fs.readFile(file, 'utf8');
    assert.match(text, /A line typed in the editor\./);
    assert.match(text, /^priority: medium$/m, 'the refused write changed nothing');
    assert.ok(
      events.some((e) => e.event === 'task.updated' && (e.data as { external?: boolean }).external),
      'the re-read is announced',
    );
    const now = okData(await api('GET', `/api/tasks/${task.id}`));
    assert.match(now.content, /A line typed in the editor\./, 'the board shows the file as it is');
    // Now that the service has seen the edit, the same write goes through on top of it.
    okData(await api('PUT', `/api/tasks/${task.id}`, { priority: 'high' }));
    const after = await fs.readFile(file, 'utf8');
    assert.match(after, /^priority: high$/m);
    assert.match(after, /A line typed in the editor\./);
  });

  it('when an editor saves by temp file and rename between API writes, then no hand edit is ever lost', async () => {
    const task = await create('Busy card');
    const file = fileOf(task.id);
    let refused = 0;
    for (let i = 0; i < 20; i++) {
      const text = await fs.readFile(file, 'utf8');
      const temp = `${file}.editor-swap`;
      await fs.writeFile(temp, `${text}edit ${i}\n`);
      await fs.rename(temp, file);
      const answer = await api('PUT', `/api/tasks/${task.id}`, { assignee: `writer ${i}` });
      if (answer.status === 409) refused++;
      else assert.equal(answer.status, 200, JSON.stringify(answer.body));
    }
    const final = await fs.readFile(file, 'utf8');
    for (let i = 0; i < 20; i++) assert.match(final, new RegExp(`^edit ${i}$`, 'm'), `hand edit ${i} is in the file`);
    assert.equal(refused, 20, 'each write met an unseen edit and was refused');
  });

  it('when a card file no longer parses, then every kind of write answers 409 with the line and the file is never rewritten or removed', async () => {
    const task = await create('Broken by hand');
    okData(await api('POST', '/api/boards', { id: 'ops', name: 'Ops' }), 201);
    const file = fileOf(task.id);
    const broken = (await fs.readFile(file, 'utf8')).replace(
      /^priority: medium$/m,
      'priority: [oops\nnotes typed here',
    );
    await fs.writeFile(file, broken);
    const writes: [string, string, unknown?][] = [
      ['PUT', `/api/tasks/${task.id}`, { priority: 'high' }],
      ['PATCH', `/api/tasks/${task.id}/move`, { status: 'done', position: 0 }],
      ['DELETE', `/api/tasks/${task.id}`],
      ['DELETE', `/api/tasks/${task.id}/permanent`],
      ['POST', `/api/tasks/${task.id}/comments`, { author: 'ana', content: 'hi' }],
      ['POST', `/api/boards/ops/tasks/${task.id}/transfer`, {}],
    ];
    for (const [method, url, body] of writes) {
      failsWith(await api(method, url, body), 409, /does not parse .*line \d+/);
      assert.equal(await fs.readFile(file, 'utf8'), broken, `${method} ${url} left the file as typed`);
    }
    const workspace = okData(await api('GET', '/api/workspace'));
    assert.deepEqual(
      workspace.invalidFiles.map((f: { path: string }) => f.path),
      [`.kanban/boards/default/backlog/${task.id}.md`],
    );
  });

  it('when .kanban.json holds git conflict markers, then config writes answer 409 with the line and the file stays as it is', async () => {
    okData(await api('PUT', '/api/labels/bug', { color: '#ff0000' }));
    const configFile = path.join(root, '.kanban.json');
    const good = await fs.readFile(configFile, 'utf8');
    const conflicted = `<<<<<<< HEAD\n${good}=======\n${good}>>>>>>> theirs\n`;
    await fs.writeFile(configFile, conflicted);
    for (const [method, url, body] of [
      ['PUT', '/api/labels/x', { color: '#00ff00' }],
      ['PUT', '/api/settings', { compactMode: true }],
      ['POST', '/api/boards', { id: 'ops', name: 'Ops' }],
    ] as const) {
      failsWith(await api(method, url, body), 409, /\.kanban\.json does not parse .*line 1/);
      assert.equal(await fs.readFile(configFile, 'utf8'), conflicted, `${method} ${url} left the file as it was`);
    }
    const listed = okData(await api('GET', '/api/workspace')).invalidFiles.map((f: { path: string }) => f.path);
    assert.deepEqual(listed, ['.kanban.json']);
    // Resolved by hand: the next write goes through and nothing is listed any more.
    await fs.writeFile(configFile, good);
    okData(await api('PUT', '/api/labels/x', { color: '#00ff00' }));
    assert.deepEqual(okData(await api('GET', '/api/workspace')).invalidFiles, []);
    assert.ok(JSON.parse(await fs.readFile(configFile, 'utf8')).labels.x);
  });

  it('when .kanban.json was edited by hand, then a config write answers 409 and the hand edit is in effect', async () => {
    okData(await api('PUT', '/api/labels/bug', { color: '#ff0000' }));
    const configFile = path.join(root, '.kanban.json');
    const config = JSON.parse(await fs.readFile(configFile, 'utf8'));
    config.labels.feature = { color: '#0000ff' };
    await fs.writeFile(configFile, JSON.stringify(config, null, 2));
    failsWith(await api('PUT', '/api/labels/bug', { color: '#111111' }), 409, /\.kanban\.json changed on disk/);
    assert.deepEqual(Object.keys(okData(await api('GET', '/api/labels'))).sort(), ['bug', 'feature']);
    assert.ok(JSON.parse(await fs.readFile(configFile, 'utf8')).labels.feature, 'the hand edit is still in the file');
  });

  it('when a card id is written out in full, then it matches that card only, never a longer id sharing its prefix', async () => {
    // An id made before ids had a random suffix, and a newer card whose id starts with it.
    const first = await create('Fix login timeout');
    const longer = `${first.id}-2`;
    await fs.writeFile(
      fileOf(longer),
      (await fs.readFile(fileOf(first.id), 'utf8')).replace(`id: ${first.id}`, `id: ${longer}`),
    );
    await running.close();
    running = await startServer({ root, port: 0, watch: false });
    const second = okData(await api('GET', `/api/tasks/${longer}`));
    okData(await api('POST', '/api/boards', { id: 'ops', name: 'Ops' }), 201);
    okData(await api('POST', `/api/boards/ops/tasks/${first.id}/transfer`, {}));
    failsWith(await api('GET', `/api/tasks/${first.id}`), 404, new RegExp(first.id));
    failsWith(await api('DELETE', `/api/tasks/${first.id}`), 404);
    assert.equal(okData(await api('GET', `/api/tasks/${second.id}`)).status, 'backlog', 'the -2 card was not touched');
    assert.equal(okData(await api('GET', '/api/tasks/fix-login')).id, second.id, 'a partial id still matches');
  });
});

describe('file truth: an editor racing an API writer', () => {
  it('when hand edits (temp file and rename) land while an API writer changes the card every few ms, then every hand edit survives', async function () {
    this.timeout(60_000);
    const root = await makeTempDir();
    const running = await startServer({ root, port: 0 });
    try {
      const put = (body: unknown) =>
        fetch(`${running.url}/api/tasks/raced`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const created = await (
        await fetch(`${running.url}/api/tasks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ content: '# Raced\n' }),
        })
      ).json();
      const file = path.join(root, '.kanban', 'boards', 'default', 'backlog', `${created.data.id}.md`);
      let editing = true;
      const statuses = new Map<number, number>();
      const writer = (async () => {
        for (let i = 0; editing; i++) {
          const answer = await put({ assignee: `writer-${i}` });
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          await answer.arrayBuffer();
        }
      })();
      for (let i = 0; i < 20; i++) {
        const text = await fs.readFile(file, 'utf8');
        const temp = path.join(path.dirname(file), `.editor-${i}.swp`);
        await fs.writeFile(temp, `${text}hand edit ${i}\n`);
        await fs.rename(temp, file);
        // Like a person, the next edit starts from what the editor shows after a moment.
        await new Promise((resolve) => setImmediate(resolve));
      }
      editing = false;
      await writer;
      const final = await fs.readFile(file, 'utf8');
      const lost = Array.from({ length: 20 }, (_, i) => i).filter(
        (i) => !new RegExp(`^hand edit ${i}$`, 'm').test(final),
      );
      assert.deepEqual(lost, [], `hand edits lost; API answers: ${JSON.stringify([...statuses])}`);
      assert.deepEqual(
        [...statuses.keys()].filter((s) => s !== 200 && s !== 409),
        [],
        'the writer only ever got 200 or 409',
      );
    } finally {
      await running.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
