import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startServer } from '../../server/server';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, listIds, okData } from '../helpers/envelope';
import { RecordingSocket } from '../helpers/wsClient';
import { buildCli, expectCode, kanban, REPO } from '../cli/helpers';

const EXAMPLE = path.join(REPO, 'examples', 'provider-jsonfile');

/** Installs the example as npm does a `file:` dependency: a link in the workspace's node_modules. */
async function installExample(root: string): Promise<void> {
  await fs.mkdir(path.join(root, 'node_modules'), { recursive: true });
  await fs.symlink(EXAMPLE, path.join(root, 'node_modules', 'kanban-provider-jsonfile'), 'dir');
}

function configWith(plugins: Record<string, unknown>): Record<string, unknown> {
  return { version: 2, plugins };
}

async function writeModule(root: string, relative: string, source: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await fs.writeFile(path.join(root, relative), source);
}

/** A tiny attachment.storage provider in one workspace file, payloads kept in memory. */
const MEMORY_ATTACHMENTS = `
const files = new Map();
const key = (card, name) => card.boardId + '/' + card.id + '/' + name;
exports.createAttachmentStore = (options) => ({
  provider: 'memory-' + options.label,
  async put(card, name, data, contentType) { files.set(key(card, name), { data: Buffer.from(data), contentType }); },
  async get(card, name) {
    const file = files.get(key(card, name));
    if (!file) return null;
    return { size: file.data.length, contentType: file.contentType, stream: async () => require('node:stream').Readable.from([file.data]) };
  },
  async remove(card, name) { files.delete(key(card, name)); },
  async removeAll(card) { for (const k of [...files.keys()]) if (k.startsWith(card.boardId + '/' + card.id + '/')) files.delete(k); },
  async move(from, to, names) { for (const n of names) { files.set(key(to, n), files.get(key(from, n))); files.delete(key(from, n)); } },
  async close() {},
});
`;

describe('Storage providers from other packages', function () {
  this.timeout(60_000);
  let root: string;
  let servers: TestServer[];

  beforeEach(async () => {
    root = await makeTempDir();
    servers = [];
  });
  afterEach(async () => {
    for (const server of servers) await server.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  async function serve(config: Record<string, unknown>): Promise<TestServer> {
    const server = await startTestServer({ root, config });
    servers.push(server);
    return server;
  }

  async function startFails(config: Record<string, unknown>, message: RegExp): Promise<void> {
    await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(config));
    await assert.rejects(startServer({ root, port: 0, watch: false }), (error: Error) => {
      assert.match(error.message, message);
      return true;
    });
  }

  it('when the example package is installed and named as card.storage, then REST, live updates and a restart work over its JSON file', async () => {
    await installExample(root);
    const server = await serve(
      configWith({ 'card.storage': { provider: 'kanban-provider-jsonfile', options: { file: 'data/cards.json' } } }),
    );
    assert.equal(okData(await server.api('GET', '/api/storage')).card.provider, 'jsonfile');
    const socket = await RecordingSocket.connect(`${server.url.replace('http', 'ws')}/ws`);
    try {
      const card = await createTask(server, 'Stored by a package');
      const event = await socket.waitFor((m) => m.event === 'task.created', 10_000);
      assert.equal(event.card?.id, card.id);
      assert.deepEqual(await listIds(server), [card.id]);
      const file = JSON.parse(await fs.readFile(path.join(root, 'data', 'cards.json'), 'utf8'));
      assert.deepEqual(
        file.cards.map((c: any) => c.id),
        [card.id],
      );
      await server.restart();
      assert.equal(okData(await server.api('GET', `/api/tasks/${card.id}`)).title, 'Stored by a package');
    } finally {
      socket.close();
    }
  });

  it('when the example package serves both cards and attachments, then an upload lands in its folders, downloads back, and follows its card to another board', async () => {
    await installExample(root);
    const server = await serve({
      ...configWith({
        'card.storage': { provider: 'kanban-provider-jsonfile', options: { file: 'data/cards.json' } },
        'attachment.storage': { provider: 'kanban-provider-jsonfile', options: { dir: 'data/files' } },
      }),
      boards: [
        { id: 'default', name: 'Default' },
        { id: 'ops', name: 'Ops' },
      ],
    });
    assert.equal(okData(await server.api('GET', '/api/storage')).attachment.provider, 'jsonfile-folders');
    const card = await createTask(server, 'With a file');
    okData(
      await server.api('POST', `/api/tasks/${card.id}/attachments`, {
        files: [{ name: 'notes.txt', data: Buffer.from('kept by a package ✓').toString('base64') }],
      }),
    );
    assert.equal(
      await fs.readFile(path.join(root, 'data', 'files', 'default', card.id, 'notes.txt'), 'utf8'),
      'kept by a package ✓',
    );
    const download = await fetch(`${server.url}/api/tasks/${card.id}/attachments/notes.txt`);
    assert.equal(download.status, 200);
    assert.equal(await download.text(), 'kept by a package ✓');
    okData(await server.api('POST', `/api/boards/ops/tasks/${card.id}/transfer`, {}));
    const moved = await fetch(`${server.url}/api/boards/ops/tasks/${card.id}/attachments/notes.txt`);
    assert.equal(await moved.text(), 'kept by a package ✓');
    await assert.rejects(
      fs.access(path.join(root, 'data', 'files', 'default', card.id, 'notes.txt')),
      'the payload left the old board',
    );
  });

  it("when another process writes the example's file, then the change feed brings the card to this server's WebSocket clients", async () => {
    await installExample(root);
    const server = await serve(
      configWith({
        'card.storage': { provider: 'kanban-provider-jsonfile', options: { file: 'cards.json', pollIntervalMs: 50 } },
      }),
    );
    const socket = await RecordingSocket.connect(`${server.url.replace('http', 'ws')}/ws`);
    try {
      // The other instance: the same package over the same file, as a second server would open it.
      const { createCardStore } = require(EXAMPLE);
      const peer = await createCardStore({ file: 'cards.json' }, { root, kanbanDir: path.join(root, '.kanban') });
      await peer.loadAll();
      const now = new Date().toISOString();
      const card = {
        id: 'from-peer',
        boardId: 'default',
        status: 'todo',
        content: '# From the peer\n',
        priority: 'low',
        labels: [],
        metadata: {},
        forms: [],
        formData: {},
        attachments: [],
        comments: [],
        order: 'a1',
        created: now,
        modified: now,
      };
      assert.equal(await peer.create(card), true);
      await peer.close();
      const event = await socket.waitFor((m) => m.event === 'task.created', 10_000);
      assert.equal(event.card?.id, 'from-peer');
      assert.equal(event.data?.peer, true, "an event for another instance's change says so");
      assert.equal(okData(await server.api('GET', '/api/tasks/from-peer')).title, 'From the peer');
    } finally {
      socket.close();
    }
  });

  it('when card.storage names a ./module.js, then it loads relative to the workspace with its options', async () => {
    await writeModule(root, 'providers/my-store.js', `module.exports = require(${JSON.stringify(EXAMPLE)});`);
    const server = await serve(
      configWith({ 'card.storage': { provider: './providers/my-store.js', options: { file: '.kanban/mine.json' } } }),
    );
    const card = await createTask(server, 'Via a module path');
    assert.equal(okData(await server.api('GET', '/api/storage')).card.file, path.join(root, '.kanban', 'mine.json'));
    await server.restart();
    assert.deepEqual(await listIds(server), [card.id]);
  });

  it('when attachment.storage names a ./module.js, then uploads and downloads go through it', async () => {
    await writeModule(root, 'memory-files.js', MEMORY_ATTACHMENTS);
    const server = await serve(
      configWith({ 'attachment.storage': { provider: './memory-files.js', options: { label: 'test' } } }),
    );
    assert.equal(okData(await server.api('GET', '/api/storage')).attachment.provider, 'memory-test');
    const card = await createTask(server, 'With a file');
    okData(
      await server.api('POST', `/api/tasks/${card.id}/attachments`, {
        files: [{ name: 'notes.txt', data: Buffer.from('in memory ✓').toString('base64') }],
      }),
    );
    const download = await fetch(`${server.url}/api/tasks/${card.id}/attachments/notes.txt`);
    assert.equal(download.status, 200);
    assert.equal(await download.text(), 'in memory ✓');
    await assert.rejects(
      fs.access(path.join(root, '.kanban', 'boards', 'default', 'attachments')),
      'nothing was written to the local attachment folder',
    );
  });

  it('when the named package is not installed, then start-up fails naming the capability, the built-ins and how to install it', async () => {
    await startFails(
      configWith({ 'card.storage': { provider: 'kanban-store-not-installed' } }),
      /card\.storage provider "kanban-store-not-installed" cannot start: it is neither a built-in provider \(markdown, sqlite, mysql, postgres\) nor an installed package or module \(Cannot find module 'kanban-store-not-installed'.*npm install kanban-store-not-installed.*\(setting: plugins\["card\.storage"\]\.provider in \.kanban\.json\)/,
    );
    await startFails(
      configWith({ 'attachment.storage': { provider: './missing.js' } }),
      /attachment\.storage provider "\.\/missing\.js" cannot start: it is neither a built-in provider \(localfs, sqlite, s3, mysql, postgres\)/,
    );
  });

  it('when the module exports no factory, then start-up fails saying which export is missing and what it has', async () => {
    await writeModule(root, 'wrong.js', 'exports.createIdentityProvider = () => ({});');
    await startFails(
      configWith({ 'card.storage': { provider: './wrong.js' } }),
      /card\.storage provider "\.\/wrong\.js" cannot start: the module does not export createCardStore\(options, context\) \(it exports: createIdentityProvider\)/,
    );
  });

  it('when the factory returns a store missing methods, then start-up names each one', async () => {
    await writeModule(
      root,
      'half.js',
      "exports.createCardStore = () => ({ provider: 'half', loadAll: async () => ({ cards: [], invalid: [] }), create: async () => true, subscribe: 'yes' });",
    );
    await startFails(
      configWith({ 'card.storage': { provider: './half.js' } }),
      /createCardStore\(\) returned a store without the methods update\(\), remove\(\), close\(\); subscribe as function\(s\)/,
    );
  });

  it('when the factory refuses its options, then start-up reports its message and points at the options', async () => {
    await installExample(root);
    await startFails(
      configWith({ 'card.storage': { provider: 'kanban-provider-jsonfile', options: { pollIntervalMs: 'often' } } }),
      /card\.storage provider "kanban-provider-jsonfile" cannot start: createCardStore\(\) failed: options\.pollIntervalMs must be a whole number.*\(setting: plugins\["card\.storage"\]\.options in \.kanban\.json\)/,
    );
  });

  describe('kanban provider-test (the real binary)', () => {
    before(() => buildCli());

    it('when it is run against the example package, then every card.storage and attachment.storage check passes and it exits 0', async () => {
      const run = expectCode(
        await kanban(['provider-test', 'examples/provider-jsonfile', '--options', '{"pollIntervalMs":50}']),
        0,
      );
      assert.match(run.stdout, /^card\.storage provider "examples\/provider-jsonfile"$/m);
      assert.match(
        run.stdout,
        /✓ change feed: another instance's create, update and remove reach subscribe\(\) as peer changes/,
      );
      assert.match(run.stdout, /11 checks: 11 passed, 0 failed, 0 skipped/);
      assert.match(run.stdout, /^attachment\.storage provider "examples\/provider-jsonfile"$/m);
      assert.match(run.stdout, /8 checks: 8 passed, 0 failed, 0 skipped/);
    });

    it('when a provider breaks the contract, then the failing check is named with the difference and it exits 1', async () => {
      // The example, but create() overwrites a taken id instead of answering false.
      await writeModule(
        root,
        'overwrites.js',
        `
        const example = require(${JSON.stringify(EXAMPLE)});
        exports.createCardStore = async (options, context) => {
          const store = await example.createCardStore(options, context);
          const create = store.create.bind(store);
          store.create = async (card) => (await create(card)) || (await store.update(card, card), true);
          return store;
        };`,
      );
      const run = expectCode(await kanban(['provider-test', './overwrites.js'], { cwd: root }), 1);
      assert.match(run.stdout, /✗ create\(\) answers false for an id already taken, and the first card stays/);
      assert.match(run.stdout, /create\(\) answers false for a taken id/);
      assert.match(run.stdout, /checks: 10 passed, 1 failed, 0 skipped/);
      assert.match(run.stderr, /1 check failed: "\.\/overwrites\.js" does not behave as the contract asks/);
    });

    it('when the module cannot be found or has no factory, then it says so and exits 1', async () => {
      assert.match(
        expectCode(await kanban(['provider-test', 'kanban-store-not-installed'], { cwd: root }), 1).stderr,
        /cannot load "kanban-store-not-installed": Cannot find module/,
      );
      await writeModule(root, 'nothing.js', 'exports.other = 1;');
      assert.match(
        expectCode(await kanban(['provider-test', './nothing.js'], { cwd: root }), 1).stderr,
        /exports neither createCardStore\(options, context\) nor createAttachmentStore\(options, context\) \(it exports: other\)/,
      );
      assert.match(
        expectCode(await kanban(['provider-test', './nothing.js', '--options', '[1]'], { cwd: root }), 2).stderr,
        /--options must be a JSON object/,
      );
    });

    it('when it is run against the built-in markdown, sqlite and localfs providers, then they pass the same checks', async () => {
      const markdown = expectCode(await kanban(['provider-test', 'markdown']), 0);
      assert.match(markdown.stdout, /11 checks: 8 passed, 0 failed, 3 skipped/);
      const sqlite = expectCode(await kanban(['provider-test', 'sqlite', '--options', '{"pollIntervalMs":50}']), 0);
      assert.match(
        sqlite.stdout,
        /^card\.storage provider "sqlite"\n(.*\n){11}11 checks: 11 passed, 0 failed, 0 skipped/m,
      );
      assert.match(
        sqlite.stdout,
        /^attachment\.storage provider "sqlite"\n(.*\n){8}8 checks: 8 passed, 0 failed, 0 skipped/m,
      );
      assert.match(
        expectCode(await kanban(['provider-test', 'localfs']), 0).stdout,
        /8 checks: 7 passed, 0 failed, 1 skipped/,
      );
    });
  });
});
