import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Card } from '../server/core/model';
import { serializeCard } from '../server/storage/cardFile';
import { createCardStore } from '../server/storage/providers';
import type { BenchStorage } from './storage';

/** How the cards got into the workspace; printed with the results. */
export type SeedMethod =
  | 'markdown files written directly'
  | "the provider's card store, called in the bench process"
  | 'the HTTP API (POST /api/tasks)';

const WRITE_CONCURRENCY = 64;
const API_CONCURRENCY = 8;

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

/** The card files exactly as the service writes them, without going through the service. */
export async function seedMarkdownFiles(root: string, cards: Card[]): Promise<void> {
  const folders = new Set(cards.map((card) => path.join(root, '.kanban', 'boards', card.boardId, card.status)));
  for (const folder of folders) await fs.mkdir(folder, { recursive: true });
  await inBatches(cards, WRITE_CONCURRENCY, (card) =>
    fs.writeFile(path.join(root, '.kanban', 'boards', card.boardId, card.status, `${card.id}.md`), serializeCard(card)),
  );
}

/**
 * Through the provider's own store (the factory the service uses), so rows are written by the
 * provider's code, without an HTTP round trip and the service's one-at-a-time queue per card.
 */
export async function seedThroughStore(root: string, storage: BenchStorage, cards: Card[]): Promise<void> {
  const store = await createCardStore({
    root,
    kanbanDir: path.join(root, '.kanban'),
    plugins: storage.plugins as Parameters<typeof createCardStore>[0]['plugins'],
  });
  try {
    await inBatches(cards, WRITE_CONCURRENCY, async (card) => {
      if (!(await store.create(card)))
        throw new Error(`the ${store.provider} store refused card ${card.id} (id taken)`);
    });
  } finally {
    await store.close();
  }
}

/** Through the public API of a running server: slowest, but needs nothing from the provider. */
export async function seedThroughApi(baseUrl: string, cards: Card[]): Promise<void> {
  await inBatches(cards, API_CONCURRENCY, async (card) => {
    const body = {
      content: card.content,
      status: card.status,
      priority: card.priority,
      ...(card.assignee ? { assignee: card.assignee } : {}),
      ...(card.dueDate ? { dueDate: card.dueDate } : {}),
      labels: card.labels,
      metadata: card.metadata,
    };
    const answer = await fetch(`${baseUrl}/api/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (answer.status !== 201)
      throw new Error(
        `seeding through the API failed: POST /api/tasks answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`,
      );
    await answer.arrayBuffer();
  });
}
