import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { STANDARD_COLUMNS } from '../../server/core/defaults';
import type { Card } from '../../server/core/model';
import { PRIORITIES } from '../../server/core/shapes/vocabulary';
import { spreadKeys } from '../../server/core/ordering';
import { serializeCard } from '../../server/storage/cardFile';
import { makeCard } from './cards';

/**
 * `count` cards spread over the standard columns of board `default`, written as card files before
 * a server starts (far faster than creating them through the API). Every third card shares its
 * `created` with the next ones, so ties on the sort key are there to be broken by id; every
 * fourth has no due date.
 */
export async function seedCardFiles(root: string, count: number): Promise<Card[]> {
  const columns = STANDARD_COLUMNS.map((c) => c.id);
  const perColumn = Math.ceil(count / columns.length);
  const keys = spreadKeys(perColumn);
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  const cards: Card[] = [];
  for (let i = 0; i < count; i++) {
    const number = String(i).padStart(5, '0');
    const status = columns[i % columns.length];
    cards.push(
      makeCard({
        id: `seeded-card-${number}-2026-01-01`,
        status,
        content: `# Seeded card ${number}\n\nSeeded for paging.\n`,
        priority: PRIORITIES[i % PRIORITIES.length],
        dueDate: i % 4 === 0 ? undefined : `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')}`,
        order: keys[Math.floor(i / columns.length)],
        created: new Date(base + Math.floor(i / 3) * 1000).toISOString(),
        modified: new Date(base + i * 1000).toISOString(),
      }),
    );
  }
  for (const status of columns)
    await fs.mkdir(path.join(root, '.kanban', 'boards', 'default', status), { recursive: true });
  // In batches: one promise per file runs out of file descriptors at large counts.
  for (let i = 0; i < cards.length; i += 256) {
    await Promise.all(
      cards
        .slice(i, i + 256)
        .map((card) =>
          fs.writeFile(
            path.join(root, '.kanban', 'boards', 'default', card.status, `${card.id}.md`),
            serializeCard(card),
          ),
        ),
    );
  }
  return cards;
}
