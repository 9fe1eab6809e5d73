import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { seedCardFiles } from '../helpers/seedCards';
import { listFiles, makeTempDir, startTestServer } from '../helpers/testServer';
import { waitUntil } from '../helpers/waiting';
import { ALL_TOOLSETS, startMcp, textOf, type McpSession } from './helpers';

interface Notified {
  progress: number;
  total?: number;
  message?: string;
}

/** A CSV of `count` cards, each with its own row key. */
function csvOf(count: number): string {
  const rows = Array.from({ length: count }, (_, i) => `${i},Imported card ${i},todo`);
  return ['id,title,status', ...rows].join('\n');
}

/** The card files under .kanban/boards: what a person sees in the folder. */
async function cardFiles(root: string): Promise<string[]> {
  return (await listFiles(path.join(root, '.kanban', 'boards'))).filter((file) => file.endsWith('.md'));
}

async function storageProvider(root: string): Promise<string> {
  const config = JSON.parse(await fs.readFile(path.join(root, '.kanban.json'), 'utf8').catch(() => '{}'));
  return config.plugins?.['card.storage']?.provider ?? 'markdown';
}

function assertGrowing(notified: Notified[]): void {
  assert.ok(notified.length >= 3, `only ${notified.length} progress notifications`);
  for (let i = 1; i < notified.length; i++) {
    assert.ok(
      notified[i].progress > notified[i - 1].progress,
      `progress went from ${notified[i - 1].progress} to ${notified[i].progress}`,
    );
  }
  for (const note of notified) {
    assert.equal(typeof note.total, 'number', 'every notification has a total');
    assert.ok(note.progress <= (note.total as number));
    assert.ok(note.message, 'every notification names its step');
  }
}

describe('MCP long operations: progress notifications and cancellation (--dir)', function () {
  this.timeout(180_000);
  let root: string;
  let mcp: McpSession;

  /** A fresh folder (seeded with `seeded` card files) and an MCP server on it offering every tool. */
  async function open(seeded = 0): Promise<void> {
    root = await makeTempDir('kanban-mcp-progress-');
    if (seeded) await seedCardFiles(root, seeded);
    mcp = await startMcp(['--dir', root, ...ALL_TOOLSETS]);
  }

  afterEach(async () => {
    await mcp?.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  /** Call a tool following its progress; `cancelWhen` aborts the call on the first notification it accepts. */
  async function callFollowing(name: string, args: Record<string, unknown>, cancelWhen?: (note: Notified) => boolean) {
    const notified: Notified[] = [];
    const cancel = new AbortController();
    const call = mcp.client.callTool(
      { name, arguments: args },
      {
        timeout: 170_000,
        signal: cancel.signal,
        onprogress: (note) => {
          notified.push(note);
          if (cancelWhen?.(note)) cancel.abort();
        },
      },
    ) as Promise<CallToolResult>;
    return { notified, call };
  }

  it('when an agent imports 2,000 cards with a progressToken, then progress grows to the total and every card is made', async () => {
    await open();
    const { notified, call } = await callFollowing('import_cards', { format: 'csv', data: csvOf(2000), apply: true });
    const result = await call;
    assert.ok(!result.isError, textOf(result));
    assert.equal(JSON.parse(textOf(result)).created, 2000);
    assertGrowing(notified);
    assert.deepEqual(notified.at(-1), { progress: 2000, total: 2000, message: 'creating cards' });
    assert.equal((await mcp.call('list_cards', {})).total, 2000);
    assert.equal((await cardFiles(root)).length, 2000);
  });

  it('when an agent cancels an import part way, then the cards it made are gone and the server goes on working', async () => {
    await open();
    const { notified, call } = await callFollowing(
      'import_cards',
      { format: 'csv', data: csvOf(2000), apply: true },
      (note) => note.progress > 0,
    );
    await assert.rejects(call);
    assert.ok(
      notified.some((note) => note.progress > 0),
      'cards were being made when the cancel went out',
    );
    // A write queues behind the import's own undo, so once it is done the undo is too.
    const created = await mcp.call('create_card', { title: 'After the cancel' });
    const page = await mcp.call('list_cards', {});
    assert.deepEqual(
      page.cards.map((card: { id: string }) => card.id),
      [created.id],
    );
    assert.deepEqual(await cardFiles(root), [`default/backlog/${created.id}.md`]);
  });

  it('when an agent changes 250 cards in one bulk edit, then progress is reported up to 250', async () => {
    const seeded = await open(250).then(() => mcp.call('list_cards', { limit: 250 }));
    const ids = await pageIds(seeded);
    assert.equal(ids.length, 250);
    const { notified, call } = await callFollowing('bulk_tasks', { ids, change: { labels: { add: ['triaged'] } } });
    const result = await call;
    assert.ok(!result.isError, textOf(result));
    assertGrowing(notified);
    assert.deepEqual(notified.at(-1), { progress: 250, total: 250, message: 'changing cards' });
    assert.equal((await mcp.call('list_cards', { label: 'triaged', limit: 1 })).total, 250);
  });

  it('when an agent cancels a bulk edit part way, then no card keeps the change', async () => {
    const seeded = await open(250).then(() => mcp.call('list_cards', { limit: 250 }));
    const ids = await pageIds(seeded);
    const { notified, call } = await callFollowing(
      'bulk_tasks',
      { ids, change: { labels: { add: ['triaged'] } } },
      (note) => note.progress > 0,
    );
    await assert.rejects(call);
    assert.ok(
      notified.some((note) => note.progress > 0),
      'cards were being changed when the cancel went out',
    );
    await mcp.call('create_card', { title: 'After the cancel' });
    assert.equal((await mcp.call('list_cards', { label: 'triaged', limit: 1 })).total, 0);
    const files = await cardFiles(root);
    for (const file of files)
      assert.doesNotMatch(await fs.readFile(path.join(root, '.kanban', 'boards', file), 'utf8'), /triaged/);
  });

  it('when an agent moves 500 cards from files to SQLite, then the steps report growing progress and the cards end in SQLite', async () => {
    await open(500);
    const { notified, call } = await callFollowing('migrate_to_sqlite_storage', {});
    const result = await call;
    assert.ok(!result.isError, textOf(result));
    assertGrowing(notified);
    assert.ok(notified.some((note) => note.message === 'copying cards'));
    const last = notified.at(-1) as Notified;
    assert.equal(last.progress, last.total);
    assert.equal(await storageProvider(root), 'sqlite');
    assert.equal((await mcp.call('list_cards', {})).total, 500);
  });

  it('when an agent cancels a move to SQLite, then the workspace stays on its files with every card', async () => {
    await open(2000);
    const before = await cardFiles(root);
    const { call } = await callFollowing('migrate_to_sqlite_storage', {}, () => true);
    await assert.rejects(call);
    await mcp.call('create_card', { title: 'After the cancel' });
    assert.equal(await storageProvider(root), 'markdown');
    const after = await cardFiles(root);
    assert.equal(after.length, 2001);
    assert.deepEqual(
      after.filter((file) => before.includes(file)),
      before,
    );
    assert.equal((await mcp.call('list_cards', {})).total, 2001);
    assert.ok(
      !(await listFiles(path.join(root, '.kanban'))).some((file) => file.endsWith('.db')),
      'no database file is left',
    );
  });

  /** Every card id, following the pages from `first`. */
  async function pageIds(first: { cards: { id: string }[]; nextCursor?: string }): Promise<string[]> {
    const ids = first.cards.map((card) => card.id);
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await mcp.call('list_cards', { cursor });
      ids.push(...page.cards.map((card: { id: string }) => card.id));
      cursor = page.nextCursor;
    }
    return ids;
  }
});

describe('MCP long operations through a server (--url)', function () {
  this.timeout(180_000);

  it('when an agent cancels an import the server runs, then the server takes back the cards it made', async () => {
    const server = await startTestServer();
    const mcp = await startMcp(['--url', server.url, ...ALL_TOOLSETS]);
    try {
      const cancel = new AbortController();
      const call = mcp.client.callTool(
        { name: 'import_cards', arguments: { format: 'csv', data: csvOf(2000), apply: true } },
        { signal: cancel.signal, timeout: 170_000 },
      );
      // No progress crosses HTTP: the cards appearing on the server say the import is under way.
      const count = async () => Number((await server.api('GET', '/api/tasks?limit=1')).headers.get('x-total-count'));
      await waitUntil(async () => (await count()) > 0, 60_000, 'the first imported card');
      cancel.abort();
      await assert.rejects(call);
      // The closed request reaches the server as a cancel; a write queues behind its undo.
      await waitUntil(async () => (await count()) === 0, 60_000, 'the imported cards to be taken back');
      assert.equal((await server.api('POST', '/api/tasks', { content: '# After the cancel\n' })).status, 201);
      assert.equal(await count(), 1);
      assert.equal((await cardFiles(server.root)).length, 1);
    } finally {
      await mcp.close();
      await server.close();
    }
  });
});
