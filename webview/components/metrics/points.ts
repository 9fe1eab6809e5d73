import type { FlowMetrics } from '../../types';

/** A point that stands for a card: a click on it opens the card. */
export interface CardPoint {
  x: number;
  y: number;
  id: string;
  title: string;
}

/** Finished cards with a cycle time, at their finish (x) and cycle time (y). */
export function finishedPoints(m: FlowMetrics): CardPoint[] {
  const from = Date.parse(m.from);
  const to = Date.parse(m.to);
  return m.cards.flatMap((card) => {
    const finished = card.finishedAt ? Date.parse(card.finishedAt) : NaN;
    if (card.cycleTimeMs === null || !(finished >= from && finished <= to)) return [];
    return [{ x: finished, y: card.cycleTimeMs, id: card.id, title: card.title }];
  });
}

/** Each open card at its column (spread a little sideways so equal ages stay apart) and its age in days. */
export function agingPoints(m: FlowMetrics): CardPoint[] {
  return m.wip.flatMap((column, index) =>
    column.cards.map((card, i) => ({ x: index + ((i % 7) - 3) * 0.05, y: card.ageMs, id: card.id, title: card.title })),
  );
}
