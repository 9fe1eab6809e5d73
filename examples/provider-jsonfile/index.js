// An example storage provider: every card in one JSON file (card.storage), and attachment payloads
// as plain files with their content types in one JSON file per card (attachment.storage). It imports nothing from the
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
/** @typedef {import('kanban-board-service/provider').AttachmentStore} AttachmentStore */
/** @typedef {import('kanban-board-service/provider').AttachmentPayload} AttachmentPayload */
/** @typedef {import('kanban-board-service/provider').CardRef} CardRef */

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

/**
 * Where a file of this store lands: one folder per card, every name a single path segment.
 * @param {string} name @param {string} what @returns {string}
 */
function segment(name, what) {
  if (typeof name !== 'string' || name === '' || name === '.' || name === '..' || /[\\/\0]/.test(name)) {
    throw new Error(`${what} ${JSON.stringify(name)} cannot be stored: it must be one file name`);
  }
  return name;
}

/** Write whole or not at all: a temporary file beside the target, then a rename. @param {string} file @param {Buffer | string} data */
async function writeAtomically(file, data) {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.writeFile(temporary, data);
  await fs.rename(temporary, file);
}

const TYPES_FILE = '.content-types.json';

/**
 * Attachment payloads under `<dir>/<board>/<card>/<file name>`, and each card's content types in
 * `.content-types.json` beside them. The service keeps the file names on the card; this store
 * keeps only bytes and types.
 * @implements {AttachmentStore}
 */
class FolderAttachmentStore {
  /** @param {string} dir absolute path */
  constructor(dir) {
    this.provider = 'jsonfile-folders';
    this.dir = dir;
  }

  /** @param {CardRef} card */
  folderOf(card) {
    return path.join(this.dir, segment(card.boardId, 'board id'), segment(card.id, 'card id'));
  }

  /** @param {CardRef} card @returns {Promise<Record<string, string>>} */
  async typesOf(card) {
    try {
      return JSON.parse(await fs.readFile(path.join(this.folderOf(card), TYPES_FILE), 'utf8'));
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return {};
      throw error;
    }
  }

  /** @param {CardRef} card @param {(types: Record<string, string>) => void} change */
  async changeTypes(card, change) {
    const types = await this.typesOf(card);
    change(types);
    await writeAtomically(path.join(this.folderOf(card), TYPES_FILE), JSON.stringify(types));
  }

  /** @param {CardRef} card @param {string} filename @param {Buffer} data @param {string} [contentType] */
  async put(card, filename, data, contentType) {
    if (segment(filename, 'file name') === TYPES_FILE) throw new Error(`the file name ${TYPES_FILE} is kept for this store's own use`);
    await fs.mkdir(this.folderOf(card), { recursive: true });
    await writeAtomically(path.join(this.folderOf(card), filename), data);
    await this.changeTypes(card, (types) => {
      if (contentType) types[filename] = contentType;
      else delete types[filename];
    });
  }

  /** @param {CardRef} card @param {string} filename @returns {Promise<AttachmentPayload | null>} */
  async get(card, filename) {
    if (segment(filename, 'file name') === TYPES_FILE) return null;
    const file = path.join(this.folderOf(card), filename);
    try {
      const stat = await fs.stat(file);
      const contentType = (await this.typesOf(card))[filename];
      return { path: file, size: stat.size, ...(contentType ? { contentType } : {}) };
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** @param {CardRef} card @param {string} filename */
  async remove(card, filename) {
    await fs.rm(path.join(this.folderOf(card), segment(filename, 'file name')), { force: true });
    if ((await this.typesOf(card))[filename] !== undefined) await this.changeTypes(card, (types) => delete types[filename]);
  }

  /** @param {CardRef} card */
  async removeAll(card) {
    await fs.rm(this.folderOf(card), { recursive: true, force: true });
  }

  /** Copies first, removes after: a crash in between leaves a copy, never nothing. @param {CardRef} from @param {CardRef} to @param {string[]} filenames */
  async move(from, to, filenames) {
    const types = await this.typesOf(from);
    for (const filename of filenames) {
      const source = path.join(this.folderOf(from), segment(filename, 'file name'));
      const data = await fs.readFile(source).catch((error) => (error.code === 'ENOENT' ? null : Promise.reject(error)));
      if (data) await this.put(to, filename, data, types[filename]);
    }
    for (const filename of filenames) await this.remove(from, filename);
  }

  describe() {
    return { dir: this.dir };
  }

  async close() {}
}

/**
 * The factory the service calls for `"attachment.storage": { "provider": "kanban-provider-jsonfile",
 * "options": { "dir": ".kanban/attachment-files" } }`.
 * @param {Record<string, unknown>} options
 * @param {StorageProviderContext} context
 * @returns {Promise<AttachmentStore>}
 */
async function createAttachmentStore(options, context) {
  const dir = options.dir ?? '.kanban/attachment-files';
  if (typeof dir !== 'string' || dir === '') throw new Error('options.dir must be a folder relative to the workspace, e.g. ".kanban/attachment-files"');
  const absolute = path.resolve(context.root, dir);
  await fs.mkdir(absolute, { recursive: true });
  return new FolderAttachmentStore(absolute);
}

module.exports = { createCardStore, createAttachmentStore };
