import { Type, type Static } from '@sinclair/typebox';
import { named } from './names';
import { choice, count, nullableInteger, nullableText, text, textList, time } from './parts';

/**
 * Flow metrics of a board over a date range, as GET /metrics answers them (the rules are in
 * core/flowMetrics.ts). Every duration is in milliseconds, unrounded; every instant is ISO 8601 UTC.
 */

export const HISTORY_KINDS = ['full', 'partial', 'none'] as const;

const ms = (description: string) => Type.Integer({ minimum: 0, description: `${description}; milliseconds` });

const Percentiles = (what: string) =>
  Type.Object(
    {
      count: count(`cards finished in the range with a known ${what}`),
      p50Ms: nullableInteger(`median ${what} (nearest rank), or null when count is 0`),
      p85Ms: nullableInteger(`85th percentile ${what} (nearest rank), or null`),
      p95Ms: nullableInteger(`95th percentile ${what} (nearest rank), or null`),
    },
    { description: `${what} of the cards finished in the range` },
  );

export const MetricsCardSchema = named(
  'MetricsCard',
  Type.Object(
    {
      id: text('card id'),
      title: text('card title'),
      status: text('column id now'),
      created: time('when the card was created'),
      history: choice(HISTORY_KINDS, {
        description:
          'full: every move since creation is recorded; partial: moves are recorded from some point on; none: no move is recorded',
      }),
      startedAt: nullableText('first entry into the start column or a later one; null when not started or not known'),
      finishedAt: nullableText('first arrival in the last column; null when not there'),
      cycleTimeMs: nullableInteger('startedAt to finishedAt; null when either is unknown'),
      leadTimeMs: nullableInteger('created to finishedAt; null when not finished'),
      columnMs: Type.Array(Type.Integer({ minimum: 0 }), {
        description: 'milliseconds spent in each board column up to `asOf`, in the order of the answer `columns`',
      }),
    },
    { description: 'one card of the board on the board during the range' },
  ),
);

const WipCardSchema = Type.Object({
  id: text('card id'),
  title: text('card title'),
  ageMs: ms('asOf minus startedAt (or created when not started)'),
  inColumnMs: ms('asOf minus when it entered its column'),
});

export const FlowMetricsSchema = named(
  'FlowMetrics',
  Type.Object(
    {
      board: text('board id'),
      from: time('start of the range (inclusive)'),
      to: time('end of the range (inclusive)'),
      asOf: time('the instant WIP ages and column times are measured at: the earlier of `to` and now'),
      columns: Type.Array(Type.Object({ id: text('column id'), name: text('column name') }), {
        description: 'the board columns, in board order',
      }),
      startColumn: text('where cycle time starts: the board startStatus, else its start column'),
      doneColumn: text('the last column, where cycle and lead time end'),
      cycleTime: Percentiles('cycle time'),
      leadTime: Percentiles('lead time'),
      throughput: Type.Array(
        Type.Object({
          week: text('ISO week, e.g. 2026-W14'),
          start: text('its Monday, YYYY-MM-DD'),
          count: count('cards that first arrived in the last column that week, within the range'),
        }),
        { description: 'every ISO week that overlaps the range, oldest first' },
      ),
      wip: Type.Array(
        Type.Object({
          column: text('column id'),
          cards: Type.Array(WipCardSchema, { description: 'oldest first' }),
        }),
        { description: 'open cards at asOf per column (every column but the last), in board order' },
      ),
      cumulativeFlow: Type.Object(
        {
          days: textList('each UTC day of the range, YYYY-MM-DD'),
          series: Type.Array(
            Type.Object({
              column: text('column id'),
              counts: Type.Array(Type.Integer({ minimum: 0 }), { description: 'cards in it at the end of each day' }),
            }),
            { description: 'one per column, in board order' },
          ),
        },
        { description: 'cards per column at the end of each day' },
      ),
      cycleTimeUnknown: textList('ids of cards finished in the range whose start is not recorded'),
      cards: Type.Array(MetricsCardSchema, { description: 'every card on the board during the range' }),
    },
    { description: 'flow metrics of a board over a date range; durations in milliseconds' },
  ),
);

export type FlowMetrics = Static<typeof FlowMetricsSchema>;
export type MetricsCard = Static<typeof MetricsCardSchema>;
export type HistoryKind = (typeof HISTORY_KINDS)[number];
