import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { columnHistoryLine } from '../../server/core/columnHistory';
import { serializeCard } from '../../server/storage/cardFile';
import { makeCard } from './cards';

/**
 * A board with a history of known instants, written as the service keeps it (card files with
 * their column history) before a server opens the folder. The standard board, work starting in
 * in-progress; the figures the tests expect are worked out by hand below.
 */
export const H = 3_600_000;
export const D = 24 * H;
export const T0 = Date.parse('2026-03-02T00:00:00.000Z'); // a Monday
export const RANGE = { from: '2026-03-02', to: '2026-03-14' };

const iso = (offset: number) => new Date(T0 + offset).toISOString();

/** Where a card went: the instant it arrived in a column, the first being its creation. */
type Stop = [offset: number, column: string];

interface KnownCard {
  id: string;
  status: string;
  created: number;
  completedAt?: number;
  path: Stop[];
}

/** A card created in the first column of `path` and moved along the rest; it stays in the last. */
const walked = (id: string, ...path: Stop[]): KnownCard => ({ id, status: path.at(-1)![1], created: path[0][0], path });

const CARDS: KnownCard[] = [
  walked('alpha-2026-03-02', [0, 'backlog'], [D, 'in-progress'], [2 * D, 'review'], [3 * D + 6 * H, 'done']),
  walked('bravo-2026-03-03', [D, 'todo'], [2 * D, 'in-progress'], [4 * D, 'done']),
  walked('charlie-2026-03-02', [0, 'backlog'], [3 * D, 'in-progress'], [10 * D, 'done']),
  // Older than the record: only completedAt says when it finished.
  { id: 'delta-2026-02-28', status: 'done', created: -2 * D, completedAt: 5 * D, path: [] },
  walked('echo-2026-03-02', [0, 'backlog'], [6 * D, 'in-progress']),
];

/** Cycle times alpha 2d 6h, bravo 2d, charlie 7d; lead times also delta 7d; echo in progress since day 6. */
export const EXPECTED = {
  cycleTime: { count: 3, p50Ms: 2 * D + 6 * H, p85Ms: 7 * D, p95Ms: 7 * D },
  leadTime: { count: 4, p50Ms: 3 * D + 6 * H, p85Ms: 10 * D, p95Ms: 10 * D },
  throughput: [
    { week: '2026-W10', start: '2026-03-02', count: 3 },
    { week: '2026-W11', start: '2026-03-09', count: 1 },
  ],
  cycleTimeUnknown: ['delta-2026-02-28'],
  wipInProgress: [{ id: 'echo-2026-03-02', title: 'Echo', ageMs: 7 * D - 1, inColumnMs: 7 * D - 1 }],
  doneCounts: [0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 4, 4, 4],
};

export async function writeKnownHistory(root: string): Promise<void> {
  const board = path.join(root, '.kanban', 'boards', 'default');
  for (const c of CARDS) {
    const title = c.id.split('-')[0];
    const card = makeCard({
      id: c.id,
      status: c.status,
      content: `# ${title[0].toUpperCase()}${title.slice(1)}\n`,
      created: iso(c.created),
      modified: iso(c.created),
      completedAt: c.completedAt === undefined ? undefined : iso(c.completedAt),
    });
    if (c.path.length)
      card.columnHistory = c.path.map(([offset, to], i) =>
        columnHistoryLine(iso(offset), c.path[i - 1]?.[1] ?? null, to),
      );
    await fs.mkdir(path.join(board, c.status), { recursive: true });
    await fs.writeFile(path.join(board, c.status, `${c.id}.md`), serializeCard(card));
  }
}
