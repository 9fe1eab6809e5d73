import { shortDuration } from '../../../server/core/metricsText';
import type { FlowMetrics } from '../../types';

/** The charts' contents in a sentence each: what a screen reader says for the canvas, and a caption. */

const cards = (n: number) => `${n} card${n === 1 ? '' : 's'}`;
const nameOf = (m: FlowMetrics, id: string) => m.columns.find((c) => c.id === id)?.name ?? id;

export function cumulativeFlowSummary(m: FlowMetrics): string {
  const days = m.cumulativeFlow.days;
  if (days.length === 0) return 'No days in the range.';
  const last = m.cumulativeFlow.series.map((s) => `${nameOf(m, s.column)} ${s.counts[s.counts.length - 1] ?? 0}`);
  return `Cards per column each day from ${days[0]} to ${days[days.length - 1]}; on the last day: ${last.join(', ')}.`;
}

export function cycleTimeSummary(m: FlowMetrics, finished: number): string {
  if (finished === 0) return 'No card with a recorded start finished in the range.';
  const { p50Ms, p85Ms, p95Ms } = m.cycleTime;
  return `${cards(finished)} finished with a cycle time; p50 ${shortDuration(p50Ms)}, p85 ${shortDuration(p85Ms)}, p95 ${shortDuration(p95Ms)}.`;
}

export function throughputSummary(m: FlowMetrics): string {
  const total = m.throughput.reduce((sum, w) => sum + w.count, 0);
  if (total === 0) return `No card finished in the ${m.throughput.length} weeks of the range.`;
  const best = m.throughput.reduce((a, b) => (b.count > a.count ? b : a));
  return `${cards(total)} finished over ${m.throughput.length} weeks; the most in ${best.week} (${best.count}).`;
}

export function agingSummary(m: FlowMetrics): string {
  const open = m.wip.filter((w) => w.cards.length > 0);
  if (open.length === 0) return 'No card in progress.';
  const parts = open.map((w) => `${nameOf(m, w.column)} ${w.cards.length}, oldest ${shortDuration(w.cards[0].ageMs)}`);
  return `Open cards by column: ${parts.join('; ')}.`;
}
