import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import type { AttachmentStore, CardRef } from '../attachmentStore';
import type { Check, CheckContext } from './runner';

type Ctx = CheckContext<AttachmentStore>;

const CARD: CardRef = { boardId: 'default', id: 'with-files' };
const OTHER: CardRef = { boardId: 'default', id: 'other-card' };
const ELSEWHERE: CardRef = { boardId: 'ops', id: 'with-files' };
/** Every byte value, so text-only or re-encoding storage shows. */
const BINARY = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));

/** The payload's bytes, by whichever way the store hands it back; null when the store has none. */
async function bytesOf(store: AttachmentStore, card: CardRef, filename: string): Promise<Buffer | null> {
  const payload = await store.get(card, filename);
  if (!payload) return null;
  if (payload.stream) {
    const chunks: Buffer[] = [];
    for await (const chunk of await payload.stream()) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
  if (payload.path) return fs.readFile(payload.path);
  throw new Error(`get(${card.id}, ${filename}) answered neither a path nor a stream: the API can only answer 501`);
}

async function withStore<T>(ctx: Ctx, work: (store: AttachmentStore) => Promise<T>): Promise<T> {
  const store = await ctx.open();
  try {
    return await work(store);
  } finally {
    await ctx.close(store);
  }
}

const text = (value: string) => Buffer.from(value, 'utf8');

export const attachmentChecks: Check<AttachmentStore>[] = [
  {
    name: 'binary bytes and their content type read back the same in a new instance',
    async run(ctx) {
      await withStore(ctx, (store) => store.put(CARD, 'image.png', BINARY, 'image/png'));
      await withStore(ctx, async (store) => {
        const payload = await store.get(CARD, 'image.png');
        assert.ok(payload, 'get() found the payload');
        if (payload.size !== undefined) assert.equal(payload.size, BINARY.length, 'size');
        if (payload.contentType !== undefined) assert.equal(payload.contentType, 'image/png', 'contentType');
        assert.ok(
          (await bytesOf(store, CARD, 'image.png'))?.equals(BINARY),
          'the bytes read back differ from those put',
        );
      });
    },
  },
  {
    name: 'get() answers null for a file never put',
    async run(ctx) {
      await withStore(ctx, async (store) => {
        assert.equal(await store.get(CARD, 'missing.txt'), null);
        await store.put(OTHER, 'missing.txt', text('on another card'));
        assert.equal(await store.get(CARD, 'missing.txt'), null, 'a file of another card was found');
      });
    },
  },
  {
    name: 'the same file name on two cards and two boards keeps three payloads apart',
    async run(ctx) {
      await withStore(ctx, async (store) => {
        await store.put(CARD, 'notes.txt', text('card'));
        await store.put(OTHER, 'notes.txt', text('other card'));
        await store.put(ELSEWHERE, 'notes.txt', text('same id, other board'));
        assert.equal((await bytesOf(store, CARD, 'notes.txt'))?.toString(), 'card');
        assert.equal((await bytesOf(store, OTHER, 'notes.txt'))?.toString(), 'other card');
        assert.equal((await bytesOf(store, ELSEWHERE, 'notes.txt'))?.toString(), 'same id, other board');
      });
    },
  },
  {
    name: 'put() of an existing name replaces the payload',
    async run(ctx) {
      await withStore(ctx, async (store) => {
        await store.put(CARD, 'notes.txt', text('version one, longer than the next'));
        await store.put(CARD, 'notes.txt', text('v2'));
        assert.equal((await bytesOf(store, CARD, 'notes.txt'))?.toString(), 'v2');
      });
    },
  },
  {
    name: 'remove() deletes one file, keeps the others, and accepts a missing one',
    async run(ctx) {
      await withStore(ctx, async (store) => {
        await store.put(CARD, 'a.txt', text('a'));
        await store.put(CARD, 'b.txt', text('b'));
        await store.remove(CARD, 'a.txt');
        await store.remove(CARD, 'never-there.txt');
      });
      await withStore(ctx, async (store) => {
        assert.equal(await store.get(CARD, 'a.txt'), null, 'a removed file is still there');
        assert.equal((await bytesOf(store, CARD, 'b.txt'))?.toString(), 'b');
      });
    },
  },
  {
    name: 'removeAll() deletes every file of one card and nothing of another',
    async run(ctx) {
      await withStore(ctx, async (store) => {
        await store.put(CARD, 'a.txt', text('a'));
        await store.put(CARD, 'b.txt', text('b'));
        await store.put(OTHER, 'a.txt', text('kept'));
        await store.removeAll(CARD);
      });
      await withStore(ctx, async (store) => {
        assert.equal(await store.get(CARD, 'a.txt'), null);
        assert.equal(await store.get(CARD, 'b.txt'), null);
        assert.equal((await bytesOf(store, OTHER, 'a.txt'))?.toString(), 'kept');
      });
    },
  },
  {
    name: 'move() carries the named files to a card on another board',
    async run(ctx) {
      await withStore(ctx, async (store) => {
        await store.put(CARD, 'a.txt', text('a'));
        await store.put(CARD, 'image.png', BINARY, 'image/png');
        await store.move(CARD, ELSEWHERE, ['a.txt', 'image.png']);
      });
      await withStore(ctx, async (store) => {
        assert.equal(await store.get(CARD, 'a.txt'), null, 'a moved file is still at its old card');
        assert.equal((await bytesOf(store, ELSEWHERE, 'a.txt'))?.toString(), 'a');
        assert.ok((await bytesOf(store, ELSEWHERE, 'image.png'))?.equals(BINARY), 'the moved binary file differs');
      });
    },
  },
  {
    name: 'describe() answers a JSON object',
    skip: (store) => (store.describe ? null : 'no describe()'),
    async run(ctx) {
      await withStore(ctx, async (store) => {
        const description = store.describe!();
        assert.ok(
          typeof description === 'object' && description !== null && !Array.isArray(description),
          'describe() answers an object',
        );
        JSON.stringify(description);
      });
    },
  },
];
