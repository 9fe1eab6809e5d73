import { metricsText } from '../core/metricsText';
import type { FlowMetrics } from '../core/shapes/metrics';
import { str, type Command } from './command';

/** `kanban metrics`: the board's flow (GET /metrics), as text or, with --json, the exact answer. */
export const metricsCommand: Command = {
  name: 'metrics',
  summary: 'Flow metrics: cycle and lead time (p50/p85/p95), weekly throughput, WIP age, cumulative flow',
  details: [
    'Cycle time runs from a card first entering the start column (the board startStatus, else its',
    'start column) or a later one, to its first arrival in the last column; lead time from its creation.',
    'Both count for the cards that arrived in the range. Dates are whole UTC days; the range defaults',
    'to the last 90 days. Durations print as "3d 4h"; --json prints the exact milliseconds.',
  ],
  options: {
    from: { type: 'string', value: '<date>', description: 'start of the range, ISO 8601 (default: 90 days back)' },
    to: { type: 'string', value: '<date>', description: 'end of the range, ISO 8601 (default: the end of today, UTC)' },
  },
  writes: false,
  async run(ctx, parsed) {
    const answer = await ctx.get<FlowMetrics>(ctx.boardPath('/metrics'), {
      from: str(parsed, 'from'),
      to: str(parsed, 'to'),
    });
    if (ctx.json) return ctx.printJson(answer);
    ctx.output.out(metricsText(answer.data));
  },
};
