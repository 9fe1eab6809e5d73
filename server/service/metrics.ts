import { ValidationError } from '../core/errors';
import { DAY_MS, dayStart } from '../core/flowCalendar';
import { flowMetricsJson, type MetricsCardInput } from '../core/flowMetrics';
import type { FlowStep } from '../core/flowTimeline';
import { stepsOfHistory } from '../core/columnHistory';
import { titleOf, type Card } from '../core/model';
import { startColumnOf } from '../core/startColumn';
import type { CachedAnswer } from './readCache';
import { isIsoDate } from './validate';
import type { Workspace } from './workspace';

/** Days the range covers when `from` is not given (with `to`'s own day). */
export const DEFAULT_RANGE_DAYS = 90;
/** The longest range answered: ten years of daily cumulative flow is already a large answer. */
const MAX_RANGE_DAYS = 3660;

export interface MetricsRange {
  from?: string;
  to?: string;
}

const MINUTE_MS = 60_000;

/**
 * Flow metrics of a board over [from, to] (core/flowMetrics.ts says how each is counted), as the
 * whole success envelope, serialized, with its ETag. The history is each card's own column history
 * (core/columnHistory.ts), so the cards in memory are all it reads; `now` is a parameter so the
 * numbers can be checked against fixed instants. Kept in the read cache until the cards, the config
 * or "now" change, so repeated reads (a dashboard polling) neither compute nor serialize again.
 */
export function boardMetricsAnswer(ws: Workspace, boardId: string, range: MetricsRange, now?: number): CachedAnswer {
  ws.board(boardId);
  const inputs = boardInputsOf(ws, boardId);
  // "Now" is the start of the current minute, or the board's latest recorded change when that is
  // later: the answer (and its ETag) then stays the same until the board changes or the minute
  // turns, so a repeated read is a 304, and a change just made is always counted.
  const at = now ?? Math.max(Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS, inputs.latestStep);
  const { fromMs, toMs } = rangeOf(range, at);
  const key = JSON.stringify(['metrics', boardId, fromMs, toMs, at]);
  return ws.readCache.answer(ws, key, () => ({
    body: Buffer.from(`{"ok":true,"data":${metricsJson(ws, boardId, inputs, fromMs, toMs, at)}}`),
  }));
}

/** What the metrics read of a board's cards, made once per version of the card index. */
interface BoardInputs {
  version: number;
  cards: MetricsCardInput[];
  steps: Map<string, FlowStep[]>;
  /** The latest recorded step of any card (see "now" in boardMetricsAnswer). */
  latestStep: number;
}

const boardInputs = new WeakMap<Workspace, Map<string, BoardInputs>>();

/**
 * Kept until the index changes, so a repeated read (a dashboard polling, a 304) costs a lookup, not
 * a walk of every card.
 */
function boardInputsOf(ws: Workspace, boardId: string): BoardInputs {
  let boards = boardInputs.get(ws);
  if (!boards) boardInputs.set(ws, (boards = new Map()));
  const kept = boards.get(boardId);
  if (kept && kept.version === ws.index.version) return kept;
  const made: BoardInputs = { version: ws.index.version, cards: [], steps: new Map(), latestStep: -Infinity };
  for (const card of ws.index.cardsOf(boardId)) {
    const { input, steps } = preparedOf(ws, card);
    made.cards.push(input);
    made.steps.set(input.id, steps);
    if (steps.length) made.latestStep = Math.max(made.latestStep, steps[steps.length - 1].at);
  }
  boards.set(boardId, made);
  return made;
}

interface PreparedCard {
  input: MetricsCardInput;
  steps: FlowStep[];
}

/**
 * Cards are replaced, never changed, in the index: what the metrics take of a card (its fields and
 * its parsed history) is made once per version of it, and the same input object lets
 * core/flowMetrics.ts keep its timeline too.
 */
const preparedCards = new WeakMap<Card, PreparedCard>();

function preparedOf(ws: Workspace, card: Card): PreparedCard {
  let prepared = preparedCards.get(card);
  if (!prepared) {
    const input = {
      id: card.id,
      title: titleOf(card.content),
      status: card.status,
      created: card.created,
      completedAt: card.completedAt,
      archivedAt: card.archivedAt,
    };
    prepared = { input, steps: stepsOfCard(card, ws.noticedMoves.of(card.id)) };
    preparedCards.set(card, prepared);
  }
  return prepared;
}

/**
 * The card's recorded steps, and the move its history does not tell: a card whose column differs
 * from where its last line left it was moved by hand, counted when the watcher saw that (else from
 * the card's `modified`, the earliest it can have happened).
 */
function stepsOfCard(card: Card, noticed: ReturnType<Workspace['noticedMoves']['of']>): FlowStep[] {
  const steps = stepsOfHistory(card.columnHistory);
  const last = steps[steps.length - 1]?.to ?? noticed?.from;
  if (last === undefined || last === card.status) return steps;
  const seen = noticed?.to === card.status ? noticed.at : Date.parse(card.modified);
  const at = Math.max(seen, steps[steps.length - 1]?.at ?? -Infinity);
  return [...steps, { at, kind: 'moved', from: last, to: card.status }];
}

function metricsJson(
  ws: Workspace,
  boardId: string,
  inputs: BoardInputs,
  fromMs: number,
  toMs: number,
  now: number,
): string {
  const board = ws.board(boardId);
  // A startStatus that names no column falls back to the rule `kanban start` uses without one.
  const start = startColumnOf(board.columns, board.startStatus) ?? startColumnOf(board.columns);
  return flowMetricsJson({
    boardId,
    columns: board.columns,
    startColumn: start?.id ?? board.columns[0].id,
    cards: inputs.cards,
    steps: inputs.steps,
    fromMs,
    toMs,
    nowMs: now,
  });
}

/**
 * A date (`2026-03-01`) means the whole day: from its first millisecond, to its last. Without
 * `to`, the range ends with today (UTC); without `from`, it starts DEFAULT_RANGE_DAYS days back
 * (today included), at midnight UTC.
 */
export function rangeOf(range: MetricsRange, now: number): { fromMs: number; toMs: number } {
  const toMs = range.to === undefined ? dayStart(now) + DAY_MS - 1 : instantOf(range.to, 'to', true);
  const fromMs =
    range.from === undefined
      ? dayStart(toMs) - (DEFAULT_RANGE_DAYS - 1) * DAY_MS
      : instantOf(range.from, 'from', false);
  if (fromMs > toMs) throw new ValidationError(`from (${range.from}) must not be after to (${range.to ?? 'now'})`);
  if (toMs - fromMs > MAX_RANGE_DAYS * DAY_MS)
    throw new ValidationError(`the range may cover at most ${MAX_RANGE_DAYS} days`);
  return { fromMs, toMs };
}

function instantOf(value: string, name: string, endOfDay: boolean): number {
  if (!isIsoDate(value))
    throw new ValidationError(`${name} must be an ISO 8601 date or time, such as 2026-05-01 (got "${value}")`);
  const at = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(at)) throw new ValidationError(`${name} is not a time (got "${value}")`);
  return value.length === 10 && endOfDay ? at + DAY_MS - 1 : at;
}
