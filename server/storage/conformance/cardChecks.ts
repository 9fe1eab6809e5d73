import { strict as assert } from 'node:assert';
import type { Card } from '../../core/model';
import { spreadKeys } from '../../core/ordering';
import type { CardStore, ExternalChange } from '../cardStore';
import { waitFor, type Check, type CheckContext } from './runner';

type Ctx = CheckContext<CardStore>;

/** A card as the service would hand it to a store; `fields` override the defaults. */
/** Order keys as the service makes them (a store keeps them as given). */
const KEYS = spreadKeys(30);

export function sampleCard(id: string, fields: Partial<Card> = {}): Card {
  const now = '2026-03-01T10:00:00.000Z';
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
    order: KEYS[0],
    created: now,
    modified: now,
    ...fields,
  };
}

/** Every field the model has, with text that trips naive serialisers. */
function fullCard(id: string): Card {
  return sampleCard(id, {
    content: '# Ünïcode ✓ title 🚀\n\nLine one\n\n```js\nconst x = "---";\n```\n\ttabbed\n',
    status: 'in-progress',
    priority: 'critical',
    assignee: 'Zoë',
    dueDate: '2026-12-31T17:00:00Z',
    labels: ['bug', 'ui'],
    metadata: { sprint: 4, links: { jira: 'ABC-1' }, flags: [true, null, 'x'] },
    forms: [{ name: 'triage' }],
    formData: { triage: { severity: 'high' } },
    actions: { deploy: 'Deploy', rollback: 'Roll back' },
    attachments: ['notes.txt'],
    comments: [{ id: 'c1', author: 'ana', content: 'first\n\n- a\n- b', created: '2026-03-01T10:05:00.000Z' }],
    order: KEYS[1],
    blockedBy: ['other-card'],
    parent: 'parent-card',
    relatesTo: ['related-card', 'other-card'],
    duplicateOf: ['original-card'],
    completedAt: '2026-03-02T08:00:00.000Z',
  });
}

/** Contents a store must give back unchanged: a store adds or drops no newline and keeps CRs. */
const ROUND_TRIP_CONTENTS = [
  '# T\n\nbody',
  '# T\n\nbody\n',
  '# T\n\nbody\n\n',
  '',
  '\n',
  'no heading',
  '# crlf\r\nline\r\n',
  '# lone\rcr',
  '# Ünïcode ✓ 🚀\n\n\tzoë',
];

/** Cards as plain JSON, sorted by board and id: how two loads are compared (absent = undefined). */
function plain(cards: Card[]): unknown[] {
  return JSON.parse(
    JSON.stringify([...cards].sort((a, b) => `${a.boardId}/${a.id}`.localeCompare(`${b.boardId}/${b.id}`))),
  );
}

/** What a new instance over the same storage loads: the test that a write was persisted. */
async function reload(ctx: Ctx): Promise<Card[]> {
  const store = await ctx.open();
  try {
    return (await store.loadAll()).cards;
  } finally {
    await ctx.close(store);
  }
}

async function withStore<T>(ctx: Ctx, work: (store: CardStore) => Promise<T>): Promise<T> {
  const store = await ctx.open();
  await store.loadAll();
  try {
    return await work(store);
  } finally {
    await ctx.close(store);
  }
}

export const cardChecks: Check<CardStore>[] = [
  {
    name: 'a new workspace loads with no cards and no invalid files',
    async run(ctx) {
      const store = await ctx.open();
      const loaded = await store.loadAll();
      assert.deepEqual(loaded.cards, []);
      assert.deepEqual(loaded.invalid, []);
    },
  },
  {
    name: 'a card with every field reads back the same in a new instance',
    async run(ctx) {
      const card = fullCard('every-field');
      await withStore(ctx, async (store) =>
        assert.equal(await store.create(card), true, 'create() answers true for a new id'),
      );
      assert.deepEqual(plain(await reload(ctx)), plain([card]));
    },
  },
  {
    name: 'content reads back byte for byte: trailing newlines, CRLF, empty, no final newline',
    async run(ctx) {
      const cards = ROUND_TRIP_CONTENTS.map((content, i) => sampleCard(`content-${i}`, { content, order: KEYS[i] }));
      await withStore(ctx, async (store) => {
        for (const card of cards) assert.equal(await store.create(card), true);
      });
      const loaded = new Map((await reload(ctx)).map((card) => [card.id, card.content]));
      for (const card of cards)
        assert.equal(JSON.stringify(loaded.get(card.id)), JSON.stringify(card.content), `content of ${card.id}`);
    },
  },
  {
    name: 'create() answers false for an id already taken, and the first card stays',
    async run(ctx) {
      const first = sampleCard('taken', { content: '# First\n' });
      await withStore(ctx, async (store) => {
        assert.equal(await store.create(first), true);
        assert.equal(
          await store.create(sampleCard('taken', { content: '# Second\n' })),
          false,
          'create() answers false for a taken id',
        );
      });
      assert.deepEqual(plain(await reload(ctx)), plain([first]));
    },
  },
  {
    name: 'an update of fields, column and board is what a new instance loads, once, in its new place',
    async run(ctx) {
      const before = sampleCard('travel', { labels: ['a'] });
      const after = {
        ...before,
        boardId: 'ops',
        status: 'doing',
        labels: ['a', 'b'],
        priority: 'high' as const,
        assignee: 'bo',
        order: KEYS[2],
        modified: '2026-03-03T00:00:00.000Z',
      };
      const moved = { ...sampleCard('stay'), status: 'done', completedAt: '2026-03-03T00:00:00.000Z' };
      await withStore(ctx, async (store) => {
        await store.create(before);
        await store.create(sampleCard('stay'));
        await store.update(after, before);
        await store.update(moved, sampleCard('stay'));
      });
      assert.deepEqual(plain(await reload(ctx)), plain([after, moved]));
    },
  },
  {
    name: 'comments are added, edited and removed, in order',
    async run(ctx) {
      const card = sampleCard('discussed');
      const comments = [
        {
          id: 'c1',
          author: 'ana',
          content: 'first, edited',
          created: '2026-03-01T10:00:00.000Z',
          modified: '2026-03-01T11:00:00.000Z',
        },
        { id: 'c3', author: 'cy', content: 'third: "quoted" ---\n\n> quote', created: '2026-03-01T10:02:00.000Z' },
      ];
      const withThree = {
        ...card,
        comments: [
          { id: 'c1', author: 'ana', content: 'first', created: comments[0].created },
          { id: 'c2', author: 'bo', content: 'second', created: '2026-03-01T10:01:00.000Z' },
          comments[1],
        ],
      };
      await withStore(ctx, async (store) => {
        await store.create(card);
        await store.update(withThree, card);
        await store.update({ ...card, comments }, withThree);
      });
      assert.deepEqual(plain(await reload(ctx)), plain([{ ...card, comments }]));
    },
  },
  {
    name: 'a removed card is gone in a new instance, and its id can be used again',
    async run(ctx) {
      const card = sampleCard('gone');
      await withStore(ctx, async (store) => {
        await store.create(card);
        await store.create(sampleCard('kept'));
        await store.remove(card);
      });
      assert.deepEqual(
        (await reload(ctx)).map((c) => c.id),
        ['kept'],
      );
      await withStore(ctx, async (store) =>
        assert.equal(await store.create(card), true, 'the id of a removed card is free'),
      );
    },
  },
  {
    name: 'updateMany() stores every change',
    skip: (store) => (store.updateMany ? null : 'no updateMany(): the service updates cards one by one'),
    async run(ctx) {
      const cards = ['one', 'two', 'three'].map((id) => sampleCard(id, { labels: ['old'] }));
      const renamed = cards.map((card) => ({ ...card, labels: ['new'] }));
      await withStore(ctx, async (store) => {
        for (const card of cards) await store.create(card);
        await store.updateMany!(renamed.map((card, i) => ({ card, previous: cards[i] })));
      });
      assert.deepEqual(plain(await reload(ctx)), plain(renamed));
    },
  },
  {
    name: 'twenty cards created at once are all stored',
    async run(ctx) {
      const cards = Array.from({ length: 20 }, (_, i) => sampleCard(`burst-${i}`, { order: KEYS[i + 3] }));
      await withStore(ctx, async (store) => {
        const answers = await Promise.all(cards.map((card) => store.create(card)));
        assert.deepEqual(
          answers,
          cards.map(() => true),
        );
      });
      assert.deepEqual(plain(await reload(ctx)), plain(cards));
    },
  },
  {
    name: "change feed: another instance's create, update and remove reach subscribe() as peer changes",
    skip: (store) =>
      store.subscribe ? null : 'no subscribe(): fine for one service instance, not for several over one storage',
    run: checkChangeFeed,
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

/** Two instances over one storage: what the second writes, the first hears; its own writes it does not. */
async function checkChangeFeed(ctx: Ctx): Promise<void> {
  const listening = await ctx.open();
  await listening.loadAll();
  const heard: ExternalChange[] = [];
  const stop = listening.subscribe!((change) => heard.push(change));
  try {
    const writer = await ctx.open();
    await writer.loadAll();
    const own = sampleCard('own-write');
    await listening.create(own);
    const card = sampleCard('from-peer');
    await writer.create(card);
    await waitFor(
      () => heard.some((c) => c.kind === 'upsert' && c.card.id === card.id),
      'an upsert of the card the other instance created',
    );
    const changed = { ...card, content: '# Changed by the peer\n', modified: '2026-03-04T00:00:00.000Z' };
    await writer.update(changed, card);
    await waitFor(
      () => heard.some((c) => c.kind === 'upsert' && c.card.content === changed.content),
      "an upsert with the other instance's update",
    );
    await writer.remove(changed);
    await waitFor(
      () => heard.some((c) => c.kind === 'remove' && c.id === card.id),
      'a remove of the card the other instance removed',
    );
    assert.ok(
      !heard.some((c) => (c.kind === 'upsert' ? c.card.id : c.id) === own.id),
      "the instance's own write was reported back to it",
    );
    const remove = heard.find((c) => c.kind === 'remove');
    assert.equal(remove?.kind === 'remove' && remove.boardId, 'default', "a remove names the card's board");
    assert.ok(
      heard.every((c) => c.peer === true),
      'changes from another instance carry peer: true',
    );
    await ctx.close(writer);
  } finally {
    stop();
  }
}
