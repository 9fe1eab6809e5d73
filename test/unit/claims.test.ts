import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ValidationError } from '../../server/core/errors';
import { checkAgentName, comparePickOrder, isLive, leaseFor } from '../../server/core/claims';
import type { Card, Column } from '../../server/core/model';
import { readyColumnsOf } from '../../server/core/startColumn';
import { ConfigError, parseConfig, serializeConfig } from '../../server/config/parseConfig';
import { claimsFolderOf } from '../../server/storage/claims/claimsLocation';
import { withFileLock } from '../../server/storage/claims/fileLock';
import { FileClaimStore } from '../../server/storage/claims/fileClaimStore';
import { Claims } from '../../server/service/claims';
import { waitUntil } from '../helpers/waiting';
import { makeTempDir } from '../helpers/testServer';
import { fillUp, mountTmpfs, unmount } from '../helpers/tmpfs';

const column = (id: string, name = id): Column => ({ id, name, color: '#6b7280' });

function card(id: string, fields: Partial<Card> = {}): Card {
  return {
    id,
    boardId: 'default',
    status: 'todo',
    content: `# ${id}\n`,
    priority: 'medium',
    labels: [],
    metadata: {},
    forms: [],
    formData: {},
    attachments: [],
    comments: [],
    order: 'a0',
    created: '2026-01-01T00:00:00.000Z',
    modified: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

describe('claims: agent names, leases and the pick order', () => {
  for (const name of ['a', 'claude@host:1234', 'ci/build-7', 'Agent_1.beta', 'x'.repeat(64)]) {
    it(`when an agent is named "${name.length > 20 ? `${name.slice(0, 8)}... (${name.length})` : name}", then the name is accepted`, () => {
      assert.equal(checkAgentName(name, 'agent'), name);
    });
  }

  for (const name of ['', 'two words', 'ümlaut', 'semi;colon', 'x'.repeat(65), 'new\nline']) {
    it(`when an agent is named ${JSON.stringify(name.length > 20 ? `${name.slice(0, 8)}...` : name)}, then it is a 400 naming the rule`, () => {
      assert.throws(
        () => checkAgentName(name, 'X-Kanban-Agent'),
        (error: Error) =>
          error instanceof ValidationError &&
          /X-Kanban-Agent .* is not a valid agent name: use 1 to 64 characters of A-Z, a-z, 0-9 and \. _ @ : \/ -/.test(
            error.message,
          ),
      );
    });
  }

  it('when the holder renews a live claim, then until moves on and since stays; a new holder starts a new since', () => {
    const first = leaseFor('default', 'c1', 'a1', 60, null, Date.UTC(2026, 0, 1, 10));
    const renewed = leaseFor('default', 'c1', 'a1', 120, first, Date.UTC(2026, 0, 1, 10, 0, 30));
    assert.equal(renewed.since, first.since);
    assert.equal(renewed.until, '2026-01-01T10:02:30.000Z');
    const after = leaseFor('default', 'c1', 'a2', 60, first, Date.UTC(2026, 0, 1, 11));
    assert.equal(after.since, '2026-01-01T11:00:00.000Z');
  });

  it('when a lease has run out, then it is not live: the card is free', () => {
    const claim = leaseFor('default', 'c1', 'a1', 1, null, 1_000_000);
    assert.equal(isLive(claim, 1_000_999), true);
    assert.equal(isLive(claim, 1_001_000), false);
  });

  it('when cards are ordered for pick, then by priority, then due date (none last), then board order', () => {
    const cards = [
      card('low-due-soon', { priority: 'low', dueDate: '2026-01-02' }),
      card('crit-no-due', { priority: 'critical' }),
      card('crit-late', { priority: 'critical', dueDate: '2026-03-01' }),
      card('crit-early', { priority: 'critical', dueDate: '2026-02-01' }),
      card('high-second', { priority: 'high' }),
      card('high-first', { priority: 'high' }),
    ];
    const boardOrder = ['high-first', 'high-second', 'crit-no-due', 'crit-late', 'crit-early', 'low-due-soon'];
    const sorted = [...cards].sort((a, b) => comparePickOrder(a, b, (c) => boardOrder.indexOf(c.id)));
    assert.deepEqual(
      sorted.map((c) => c.id),
      ['crit-early', 'crit-late', 'crit-no-due', 'high-first', 'high-second', 'low-due-soon'],
    );
  });
});

describe('claims: which columns pick takes from', () => {
  it('when a board sets no pickFrom, then pick takes every column before the start column', () => {
    assert.deepEqual(
      readyColumnsOf({ columns: [column('backlog'), column('todo'), column('in-progress'), column('done')] }),
      ['backlog', 'todo'],
    );
    assert.deepEqual(readyColumnsOf({ columns: [column('queue'), column('c2', 'Doing'), column('done')] }), ['queue']);
  });

  it('when the board sets startStatus, then pick takes the columns before that one', () => {
    assert.deepEqual(
      readyColumnsOf({ columns: [column('a'), column('b'), column('c'), column('d')], startStatus: 'c' }),
      ['a', 'b'],
    );
  });

  it('when the board sets pickFrom, then pick takes exactly those columns', () => {
    assert.deepEqual(readyColumnsOf({ columns: [column('a'), column('b'), column('doing')], pickFrom: ['b'] }), ['b']);
  });

  it('when the start column is the first one, then there is nothing to pick from without pickFrom', () => {
    assert.deepEqual(readyColumnsOf({ columns: [column('doing'), column('done')] }), []);
  });

  const board = (extra: Record<string, unknown>) =>
    JSON.stringify({
      version: 2,
      boards: [{ id: 'default', columns: [{ id: 'queue' }, { id: 'ready' }, { id: 'doing' }], ...extra }],
    });

  it('when .kanban.json sets pickFrom to columns of the board, then it loads and is written back as it was', () => {
    const config = parseConfig(board({ pickFrom: ['ready', 'queue'] }));
    assert.deepEqual(config.boards[0].pickFrom, ['ready', 'queue']);
    assert.deepEqual(parseConfig(serializeConfig(config)).boards[0].pickFrom, ['ready', 'queue']);
  });

  for (const [what, pickFrom, message] of [
    ['a column the board lacks', ['ready', 'nowhere'], /pickFrom\[1\].*"nowhere" is not a column of board "default"/],
    ['no column', [], /pickFrom.*at least one column/],
    ['a column twice', ['ready', 'ready'], /pickFrom\[1\].*listed twice/],
  ] as const) {
    it(`when pickFrom names ${what}, then .kanban.json is refused, naming the place`, () => {
      assert.throws(
        () => parseConfig(board({ pickFrom })),
        (error: Error) => error instanceof ConfigError && message.test(error.message),
      );
    });
  }
});

describe('claims: where they live', function () {
  let tmp: string;
  beforeEach(async () => (tmp = await makeTempDir('kanban-claims-unit-')));
  afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

  it('when the workspace is in no git repository, then claims are under .kanban/.state/claims', async () => {
    const state = path.join(tmp, '.kanban', '.state');
    assert.deepEqual(await claimsFolderOf(tmp, state), { dir: path.join(state, 'claims'), inGit: false });
  });

  it('when the workspace is a worktree of a repository, then claims are under the common git dir, per workspace folder', async () => {
    // What `git worktree add` writes: a .git file naming the worktree's git dir, which names the common one.
    const common = path.join(tmp, 'main', '.git');
    await fs.mkdir(path.join(common, 'worktrees', 'wt'), { recursive: true });
    await fs.writeFile(path.join(common, 'worktrees', 'wt', 'commondir'), '../..\n');
    await fs.mkdir(path.join(tmp, 'wt', 'sub'), { recursive: true });
    await fs.writeFile(path.join(tmp, 'wt', '.git'), `gitdir: ${path.join(common, 'worktrees', 'wt')}\n`);
    assert.deepEqual(await claimsFolderOf(path.join(tmp, 'main'), 'unused'), {
      dir: path.join(common, 'kanban', 'claims'),
      inGit: true,
    });
    assert.deepEqual(await claimsFolderOf(path.join(tmp, 'wt'), 'unused'), {
      dir: path.join(common, 'kanban', 'claims'),
      inGit: true,
    });
    assert.deepEqual(await claimsFolderOf(path.join(tmp, 'wt', 'sub'), 'unused'), {
      dir: path.join(common, 'kanban', 'claims', '@sub'),
      inGit: true,
    });
  });
});

describe('claims: the lock file', function () {
  let tmp: string;
  beforeEach(async () => (tmp = await makeTempDir('kanban-lock-unit-')));
  afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

  it('when many holders want the lock at once, then they hold it one at a time and it is gone after', async () => {
    const lock = path.join(tmp, '.lock');
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withFileLock(lock, async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((resolve) => setImmediate(resolve));
          inside--;
        }),
      ),
    );
    assert.equal(most, 1);
    await assert.rejects(fs.access(lock));
  });

  it('when the lock was left by a process that is gone, then it is broken and taken', async () => {
    const lock = path.join(tmp, '.lock');
    // A pid far above any pid_max: no such process.
    await fs.writeFile(
      lock,
      JSON.stringify({ pid: 2 ** 30, host: require('node:os').hostname(), time: Date.now(), nonce: 'dead' }),
    );
    assert.equal(await withFileLock(lock, async () => 'taken', { timeoutMs: 2000 }), 'taken');
  });

  it('when a breaker crashed while breaking a stale lock, then its .break file ages out and the lock is still taken', async () => {
    const lock = path.join(tmp, '.lock');
    await fs.writeFile(
      lock,
      JSON.stringify({ pid: 2 ** 30, host: require('node:os').hostname(), time: Date.now(), nonce: 'dead' }),
    );
    await fs.writeFile(`${lock}.break`, '12345');
    assert.equal(await withFileLock(lock, async () => 'taken', { staleMs: 300, timeoutMs: 5000 }), 'taken');
    await assert.rejects(fs.access(`${lock}.break`));
  });

  it('when the lock is older than the stale limit, then it is broken even if its process runs', async () => {
    const lock = path.join(tmp, '.lock');
    await fs.writeFile(
      lock,
      JSON.stringify({ pid: process.ppid, host: 'another-host', time: Date.now() - 60_000, nonce: 'old' }),
    );
    assert.equal(await withFileLock(lock, async () => 'taken', { timeoutMs: 2000 }), 'taken');
  });

  it('when a live process holds the lock past the timeout, then the caller gets a 503 naming the lock file and nothing runs', async () => {
    const lock = path.join(tmp, '.lock');
    await fs.writeFile(
      lock,
      JSON.stringify({ pid: process.ppid, host: require('node:os').hostname(), time: Date.now(), nonce: 'busy' }),
    );
    let ran = false;
    await assert.rejects(
      withFileLock(lock, async () => (ran = true), { timeoutMs: 200 }),
      (error: Error & { status?: number }) => error.status === 503 && error.message.includes(lock),
    );
    assert.equal(ran, false);
  });

  it('when the disk is full as the lock is made, then the caller hears ENOSPC and no empty lock is left to hold others off', async function () {
    const disk = path.join(tmp, 'disk');
    await fs.mkdir(disk);
    const problem = mountTmpfs(disk, 'size=64k');
    if (problem) throw new Error(`this test needs root with CAP_SYS_ADMIN to mount a tmpfs (as CI has): ${problem}`);
    try {
      await fs.writeFile(path.join(disk, 'claims.json'), '{}');
      const lock = path.join(disk, '.lock');
      const giveRoomBack = fillUp(disk);
      await assert.rejects(
        withFileLock(lock, async () => 'taken'),
        (error: NodeJS.ErrnoException) => error.code === 'ENOSPC',
      );
      await assert.rejects(fs.access(lock), 'the lock file is gone');
      giveRoomBack();
      // With room again, the lock is free at once, not after the stale limit.
      assert.equal(await withFileLock(lock, async () => 'taken', { staleMs: 60_000, timeoutMs: 1000 }), 'taken');
    } finally {
      unmount(disk);
    }
  });

  it('when the store is re-read after a held lease ran out, then the lapse is still handed over to be announced', async () => {
    const claims = new Claims(new FileClaimStore(await makeTempDir('kanban-claims-')));
    const stop = claims.follow(() => undefined);
    const until = new Date(Date.now() + 50).toISOString();
    claims.remember({ boardId: 'default', cardId: 'brief', agent: 'a1', since: new Date().toISOString(), until });
    await waitUntil(async () => Date.now() > Date.parse(until), 2000, 'the lease to run out');
    // Another process's change makes this process re-read the store, which no longer lists the claim.
    claims.replaceAll([]);
    assert.deepEqual(
      claims.takeExpired().map((claim) => [claim.cardId, claim.agent]),
      [['brief', 'a1']],
    );
    stop();
  });
});
