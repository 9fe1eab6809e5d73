// An example card.storage provider: every card in one JSON file. It imports nothing from the
// service at run time; the JSDoc types come from the public contract, `kanban-board-service/provider`.
// Run its checks with: kanban provider-test ./examples/provider-jsonfile
'use strict';
const fs = require('node:fs/promises');
const path = require('node:path');

/** @typedef {import('kanban-board-service/provider').Card} Card */
/** @typedef {import('kanban-board-service/provider').CardStore} CardStore */
/** @typedef {import('kanban-board-service/provider').CardChange} CardChange */
/** @typedef {import('kanban-board-service/provider').ExternalChange} ExternalChange */
/** @typedef {import('kanban-board-service/provider').LoadResult} LoadResult */
/** @typedef {import('kanban-board-service/provider').StorageProviderContext} StorageProviderContext */

const LOCK_STALE_MS = 10_000;
const LOCK_WAIT_MS = 10_000;

/** @param {Card} card */
const keyOf = (card) => `${card.boardId}/${card.id}`;

/**
 * Cards in one JSON file. Writes are read-modify-write under a lock folder (several service
 * instances may share the file) and land with a rename, so a reader never sees half a file.
 * The change feed polls the file and reports what differs from what this instance last saw.
 * @implements {CardStore}
 */
class JsonFileCardStore {
  /** @param {string} file absolute path @param {number} pollIntervalMs */
  constructor(file, pollIntervalMs) {
    this.provider = 'jsonfile';
    this.file = file;
    this.pollIntervalMs = pollIntervalMs;
    /** @type {Map<string, string>} card key -> its JSON, as this instance last saw the file */
    this.seen = new Map();
    /** @type {Set<(change: ExternalChange) => void>} */
    this.listeners = new Set();
    /** @type {NodeJS.Timeout | null} */
    this.timer = null;
    /**
     * One file operation at a time in this process: a poll must not read between a write and its bookkeeping.
     * @type {Promise<unknown>}
     */
    this.queue = Promise.resolve();
  }

  /** @template T @param {() => Promise<T>} work @returns {Promise<T>} */
  serial(work) {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** @returns {Promise<Map<string, Card>>} */
  async read() {
    let text;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return new Map();
      throw error;
    }
    let data;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new Error(`${this.file} is not valid JSON (${/** @type {Error} */ (error).message}); fix or remove it`);
    }
    return new Map((data.cards ?? []).map((/** @type {Card} */ card) => [keyOf(card), card]));
  }

  /** @param {Map<string, Card>} cards */
  async write(cards) {
    const sorted = [...cards.values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
    const temp = `${this.file}.${process.pid}.tmp`;
    await fs.writeFile(temp, `${JSON.stringify({ version: 1, cards: sorted }, null, 2)}\n`);
    await fs.rename(temp, this.file);
  }

  /** Hold the lock folder while `work` runs; a lock older than LOCK_STALE_MS was left by a crash. */
  async locked(/** @type {() => Promise<any>} */ work) {
    const lock = `${this.file}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        await fs.mkdir(lock);
        break;
      } catch (error) {
        if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
        const stat = await fs.stat(lock).catch(() => null);
        if (stat && Date.now() - stat.mtimeMs > LOCK_STALE_MS) await fs.rm(lock, { recursive: true, force: true });
        else if (Date.now() > deadline) throw new Error(`${lock} is held by another process; remove it if none is running`);
        else await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    try {
      return await work();
    } finally {
      await fs.rm(lock, { recursive: true, force: true });
    }
  }

  /**
   * Report what another process changed since this one last looked, then remember the file as it
   * is now. Called before every write too, so a write never hides a peer's change.
   * @param {Map<string, Card>} cards
   */
  reportPeerChanges(cards) {
    /** @type {ExternalChange[]} */
    const changes = [];
    for (const [key, card] of cards) {
      if (this.seen.get(key) !== JSON.stringify(card)) changes.push({ kind: 'upsert', card, peer: true });
    }
    for (const key of this.seen.keys()) {
      if (!cards.has(key)) {
        const [boardId, id] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
        changes.push({ kind: 'remove', boardId, id, peer: true });
      }
    }
    this.remember(cards);
    for (const change of changes) for (const listener of this.listeners) listener(change);
  }

  /** @param {Map<string, Card>} cards */
  remember(cards) {
    this.seen = new Map([...cards].map(([key, card]) => [key, JSON.stringify(card)]));
  }

  /** Read, apply `change`, write: all under the lock. @param {(cards: Map<string, Card>) => boolean} change */
  modify(change) {
    return this.serial(() =>
      this.locked(async () => {
        const cards = await this.read();
        this.reportPeerChanges(cards);
        if (!change(cards)) return false;
        await this.write(cards);
        this.remember(cards);
        return true;
      }),
    );
  }

  /** @returns {Promise<LoadResult>} */
  loadAll() {
    return this.serial(async () => {
      const cards = await this.read();
      this.remember(cards);
      return { cards: [...cards.values()], invalid: [] };
    });
  }

  /** @param {Card} card */
  create(card) {
    return this.modify((cards) => {
      if (cards.has(keyOf(card))) return false;
      cards.set(keyOf(card), card);
      return true;
    });
  }

  /** @param {Card} card @param {Card} previous */
  async update(card, previous) {
    await this.updateMany([{ card, previous }]);
  }

  /** One file write for all the changes: all or nothing. @param {CardChange[]} changes */
  async updateMany(changes) {
    await this.modify((cards) => {
      for (const { previous } of changes) cards.delete(keyOf(previous));
      for (const { card } of changes) cards.set(keyOf(card), card);
      return true;
    });
  }

  /** @param {Card} card */
  async remove(card) {
    await this.modify((cards) => cards.delete(keyOf(card)));
  }

  /** @param {(change: ExternalChange) => void} listener */
  subscribe(listener) {
    this.listeners.add(listener);
    if (!this.timer) {
      this.timer = setInterval(() => void this.poll(), this.pollIntervalMs);
      this.timer.unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (!this.listeners.size) this.stop();
    };
  }

  poll() {
    return this.serial(async () => this.reportPeerChanges(await this.read())).catch((error) => {
      console.error(`kanban-provider-jsonfile: cannot read ${this.file}: ${error.message}`);
    });
  }

  describe() {
    return { file: this.file, pollIntervalMs: this.pollIntervalMs };
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async close() {
    this.stop();
    await this.queue;
  }
}

/**
 * The factory the service calls for `"card.storage": { "provider": "kanban-provider-jsonfile",
 * "options": { "file": ".kanban/cards.json", "pollIntervalMs": 500 } }`.
 * @param {Record<string, unknown>} options
 * @param {StorageProviderContext} context
 * @returns {Promise<CardStore>}
 */
async function createCardStore(options, context) {
  const file = options.file ?? '.kanban/cards.json';
  if (typeof file !== 'string' || file === '') throw new Error('options.file must be a path relative to the workspace, e.g. ".kanban/cards.json"');
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  if (typeof pollIntervalMs !== 'number' || !Number.isInteger(pollIntervalMs) || pollIntervalMs < 20) {
    throw new Error(`options.pollIntervalMs must be a whole number of milliseconds, at least 20, not ${JSON.stringify(pollIntervalMs)}`);
  }
  const absolute = path.resolve(context.root, file);
  await fs.mkdir(path.dirname(absolute), { recursive: true });
  return new JsonFileCardStore(absolute, pollIntervalMs);
}

module.exports = { createCardStore };
