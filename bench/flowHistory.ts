import { columnHistoryLine } from '../server/core/columnHistory';
import type { Card } from '../server/core/model';
import { COLUMN_IDS, seededRandom } from './dataset';

/**
 * A year of flow history for the `metrics` scenario: each seeded card is created on a day of the
 * last 365 and walks from the first column to its own, one step at a time (a third of those past
 * review step back to in-progress once), between an hour and ten days apart, as the service would
 * have recorded it on the card.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const YEAR_MS = 365 * DAY_MS;

interface Step {
  at: number;
  from: string | null;
  to: string;
}

function walkOf(status: string, random: () => number): string[] {
  const last = COLUMN_IDS.indexOf(status);
  const walk = COLUMN_IDS.slice(0, last + 1);
  const review = COLUMN_IDS.indexOf('review');
  if (last > review && random() < 1 / 3) walk.splice(review + 1, 0, 'in-progress', 'review');
  return walk;
}

function stepsOf(card: Card, created: number, now: number, random: () => number): Step[] {
  const walk = walkOf(card.status, random);
  const gaps = walk.slice(1).map(() => HOUR_MS + random() * 10 * DAY_MS);
  const total = gaps.reduce((a, b) => a + b, 0);
  // Squeezed into the time the card has had, so no step lies in the future.
  const scale = total > now - created ? (now - created) / total : 1;
  const steps: Step[] = [{ at: created, from: null, to: walk[0] }];
  let at = created;
  for (let i = 1; i < walk.length; i++) {
    at += Math.floor(gaps[i - 1] * scale);
    steps.push({ at, from: walk[i - 1], to: walk[i] });
  }
  return steps;
}

/** The cards with their `created` (and `completedAt`) moved into the year, and their column history. */
export function seedYearOfFlow(cards: Card[], now = Date.now()): Card[] {
  const random = seededRandom(cards.length + 365);
  return cards.map((card) => {
    const created = now - Math.floor(random() * YEAR_MS);
    const steps = stepsOf(card, created, now, random);
    const finished = card.completedAt === undefined ? undefined : new Date(steps[steps.length - 1].at).toISOString();
    return {
      ...card,
      created: new Date(created).toISOString(),
      completedAt: finished,
      columnHistory: steps.map((step) => columnHistoryLine(new Date(step.at).toISOString(), step.from, step.to)),
    };
  });
}

/** `from` and `to` of the metrics request: the year the history covers. */
export function yearRange(now = Date.now()): string {
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  return `from=${day(now - YEAR_MS)}&to=${day(now)}`;
}

/**
 * The metrics right after a change, when nothing is cached: 20 rounds of a card moved (alternating
 * between two columns) and then the year's metrics asked for, one request at a time; the time of
 * each metrics answer, whole body read. A note for the report beside the 200 ms.
 */
export async function freshMetricsNote(baseUrl: string, cardId: string): Promise<string> {
  const times: number[] = [];
  const metricsUrl = `${baseUrl}/api/metrics?${yearRange()}`;
  for (let round = 0; round < 20; round++) {
    const status = round % 2 === 0 ? 'review' : 'in-progress';
    const moved = await fetch(`${baseUrl}/api/tasks/${encodeURIComponent(cardId)}/move`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status }),
    });
    if (!moved.ok) return `metrics after a change: NOT RUN (the move answered ${moved.status})`;
    await moved.arrayBuffer();
    const started = performance.now();
    const answer = await fetch(metricsUrl);
    await answer.arrayBuffer();
    times.push(performance.now() - started);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))].toFixed(0);
  return `metrics right after a change (nothing cached, 20 rounds, one at a time): p50 ${at(0.5)} ms, slowest ${at(1)} ms (target < 200)`;
}
