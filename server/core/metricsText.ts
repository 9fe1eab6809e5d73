import type { FlowMetrics } from './shapes/metrics';

/**
 * Flow metrics as text for a person (`kanban metrics`) or an agent (the MCP tool): durations
 * shortened to their two largest units ("3d 4h"); the exact milliseconds are in the JSON.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `3d 4h`, `5h 12m`, `7m`, `42s`: the two largest units, rounded down. */
export function shortDuration(ms: number | null): string {
  if (ms === null) return '-';
  if (ms >= DAY) return `${Math.floor(ms / DAY)}d ${Math.floor((ms % DAY) / HOUR)}h`;
  if (ms >= HOUR) return `${Math.floor(ms / HOUR)}h ${Math.floor((ms % HOUR) / MINUTE)}m`;
  if (ms >= MINUTE) return `${Math.floor(ms / MINUTE)}m`;
  return `${Math.floor(ms / SECOND)}s`;
}

const percentiles = (p: FlowMetrics['cycleTime']) =>
  `p50 ${shortDuration(p.p50Ms)}, p85 ${shortDuration(p.p85Ms)}, p95 ${shortDuration(p.p95Ms)}`;

const cardsWord = (n: number) => `${n} card${n === 1 ? '' : 's'}`;

export function metricsText(m: FlowMetrics): string {
  const lines = [
    `Flow of board ${m.board} from ${m.from} to ${m.to}`,
    '',
    `Cycle time (${m.startColumn} to ${m.doneColumn}), ${cardsWord(m.cycleTime.count)}: ${percentiles(m.cycleTime)}`,
    `Lead time (created to ${m.doneColumn}), ${cardsWord(m.leadTime.count)}: ${percentiles(m.leadTime)}`,
  ];
  if (m.cycleTimeUnknown.length) lines.push(`No recorded start, so no cycle time: ${m.cycleTimeUnknown.join(', ')}`);
  lines.push('', 'Throughput per ISO week:');
  for (const week of m.throughput) lines.push(`  ${week.week} (${week.start})  ${week.count}`);
  lines.push('', `Work in progress at ${m.asOf} (oldest first):`);
  for (const { column, cards } of m.wip) {
    const oldest = cards.slice(0, 3).map((c) => `${c.id} ${shortDuration(c.ageMs)}`);
    lines.push(`  ${column}: ${cards.length}${oldest.length ? `  ${oldest.join(', ')}` : ''}`);
  }
  const last = m.cumulativeFlow.days.length - 1;
  if (last >= 0) {
    const counts = m.cumulativeFlow.series.map((s) => `${s.column} ${s.counts[last]}`).join(', ');
    lines.push('', `Cards per column at the end of ${m.cumulativeFlow.days[last]}: ${counts}`);
  }
  const finished = m.cards.filter((c) => c.finishedAt !== null && c.finishedAt >= m.from && c.finishedAt <= m.to);
  if (finished.length) {
    lines.push('', 'Finished in the range (finished, cycle, lead):');
    for (const c of finished)
      lines.push(`  ${c.id}  ${c.finishedAt}  ${shortDuration(c.cycleTimeMs)}  ${shortDuration(c.leadTimeMs)}`);
  }
  return lines.join('\n');
}
