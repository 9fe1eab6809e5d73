import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../helpers/testServer';
import { eventually } from '../helpers/waiting';
import { buildCli, expectCode, jsonOf, kanban } from './helpers';
import { commitAll, git, gitStatus } from './gitRepo';
import { changeCardFilesByHand } from './handEdits';

interface DaemonStatus {
  pid: number;
  url: string;
  calls: number;
  cards: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The board process (`kanban daemon`): a large board stays open in memory between commands, which
 * then each cost one small local request. Through it, the files stay the truth: whatever changes by
 * hand, through git or through another process is what the very next command answers.
 */
describe('kanban daemon: the board kept open between commands', function () {
  this.timeout(90_000);
  let dir: string;
  const always = { KANBAN_DAEMON: 'always' };
  const run = (args: string[], env: Record<string, string> = always) => kanban([...args, '--dir', dir], { env });
  const list = async (env?: Record<string, string>) =>
    jsonOf(await run(['list', '--json'], env)) as { id: string; title: string; status: string }[];
  const add = async (title: string, status = 'todo') =>
    jsonOf(await run(['add', title, '--status', status, '--json'])) as { id: string; filePath: string };
  const status = async () => jsonOf(await run(['daemon', '--json'])) as DaemonStatus | null;
  const ready = () =>
    eventually(async () => (await status()) ?? Promise.reject(new Error('no board process yet')), 60_000);

  before(buildCli);
  beforeEach(async () => {
    dir = await makeTempDir('kanban-daemon-');
  });
  afterEach(async () => {
    await run(['daemon', 'stop']);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('when a small board is opened without KANBAN_DAEMON, then no board process is started', async () => {
    expectCode(await run(['add', 'Small board'], {}), 0);
    expectCode(await run(['list'], {}), 0);
    assert.equal(await status(), null);
  });

  it('when KANBAN_DAEMON=always, then the first command starts the board process and the next ones go through it', async () => {
    const card = await add('Through the board process');
    const first = await ready();
    assert.equal(first.cards, 1);
    const shown = jsonOf(await run(['show', card.id.slice(0, 12), '--json']));
    assert.equal(shown.title, 'Through the board process');
    jsonOf(await run(['move', card.id, 'in-progress', '--json']));
    const after = await ready();
    assert.equal(after.pid, first.pid);
    assert.equal(after.calls - first.calls >= 2, true, `calls before ${first.calls}, after ${after.calls}`);
    assert.equal((await list()).find((c) => c.id === card.id)?.status, 'in-progress');
    // KANBAN_DAEMON=never opens the folder itself and leaves the process alone.
    const before = (await ready()).calls;
    assert.equal((await list({ KANBAN_DAEMON: 'never' })).length, 1);
    assert.equal((await ready()).calls, before, 'the in-process list did not call it');
  });

  it('when cards are edited, moved, deleted and added by hand, then the very next call answers what the files say', async () => {
    const edited = await add('Edited by hand');
    const moved = await add('Moved by hand');
    const deleted = await add('Deleted by hand');
    const callsBefore = (await ready()).calls;
    const checkListed = await changeCardFilesByHand(dir, { edited, moved, deleted });
    checkListed(await list());
    assert.ok((await ready()).calls > callsBefore, 'the list went through the board process');
    // A write to the hand-edited card goes ahead from what the file says now.
    jsonOf(await run(['edit', edited.id, '--priority', 'high', '--json']));
    assert.match(await fs.readFile(path.join(dir, edited.filePath), 'utf8'), /# Edited by HAND/);
  });

  it('when git checks out another branch and back, then the very next call answers each tree', async () => {
    git(dir, 'init', '-q', '-b', 'main');
    const shared = await add('On both branches');
    commitAll(dir, 'board');
    git(dir, 'checkout', '-q', '-b', 'feature');
    const feature = await add('Only on feature');
    jsonOf(await run(['move', shared.id, 'review', '--json']));
    commitAll(dir, 'feature work');
    const { pid } = await ready();
    git(dir, 'checkout', '-q', 'main');
    let cards = await list();
    assert.deepEqual(
      cards.map((c) => [c.title, c.status]),
      [['On both branches', 'todo']],
    );
    git(dir, 'checkout', '-q', 'feature');
    cards = await list();
    assert.deepEqual(cards.map((c) => c.title).sort(), ['On both branches', 'Only on feature']);
    assert.equal(cards.find((c) => c.id === shared.id)?.status, 'review');
    assert.equal(cards.find((c) => c.id === feature.id)?.status, 'todo');
    assert.equal((await ready()).pid, pid, 'one board process served every call');
    // Reads changed no tracked file.
    assert.equal(gitStatus(dir), '');
  });

  it('when two commands write at once and two agents pick at once, then every change lands once', async () => {
    await add('Ready one');
    await add('Ready two');
    await ready();
    const [a, b] = await Promise.all([add('Added at once A', 'backlog'), add('Added at once B', 'backlog')]);
    assert.notEqual(a.id, b.id);
    const picks = await Promise.all(
      ['agent-a', 'agent-b'].map((agent) => run(['pick', '--json'], { ...always, KANBAN_AGENT: agent })),
    );
    const picked = picks.map((p) => jsonOf(p).id as string);
    assert.equal(new Set(picked).size, 2, `both agents took ${picked[0]}`);
    const titles = (await list()).map((c) => c.title).sort();
    assert.deepEqual(titles, ['Added at once A', 'Added at once B', 'Ready one', 'Ready two']);
  });

  it('when the board process is killed, then commands open the folder themselves; when stopped, it ends', async () => {
    await add('Survives');
    const first = await ready();
    process.kill(first.pid, 'SIGKILL');
    await eventually(async () => (alive(first.pid) ? Promise.reject(new Error('still alive')) : true));
    assert.deepEqual(
      (await list({ KANBAN_DAEMON: 'auto' })).map((c) => c.title),
      ['Survives'],
    );
    // The next command under `always` starts a new one; `daemon stop` ends it and removes its record.
    await list();
    const second = await ready();
    assert.notEqual(second.pid, first.pid);
    assert.match(
      expectCode(await run(['daemon', 'stop']), 0).stdout,
      new RegExp(`stopped board process ${second.pid}`),
    );
    assert.equal(alive(second.pid), false);
    assert.equal(await status(), null);
  });

  it('when it has been idle for KANBAN_DAEMON_IDLE seconds, then it ends by itself', async () => {
    expectCode(await run(['add', 'Idle'], { ...always, KANBAN_DAEMON_IDLE: '1' }), 0);
    const { pid } = await ready();
    await eventually(async () => (alive(pid) ? Promise.reject(new Error('still running')) : true), 30_000);
    assert.equal(await status(), null);
  });

  it('when a call comes without the key of its record, then it is refused', async () => {
    await add('Guarded');
    const { url } = await ready();
    const response = await fetch(`${url}/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'GET', path: '/tasks' }),
    });
    assert.equal(response.status, 403);
    const record = await fs.stat(path.join(dir, '.kanban', '.state', 'daemon.json'));
    assert.equal(record.mode & 0o077, 0, 'the record holding the key is readable by its owner only');
  });
});
