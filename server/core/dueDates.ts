import { ValidationError } from './errors';

/**
 * Due-date filters of task lists. Every date here is a UTC calendar day (`YYYY-MM-DD`): card ids
 * already use the UTC creation date, and a server's own time zone is an accident of where it runs,
 * so a list answers the same wherever the service is. Pure logic, no clock: callers pass `today`.
 */

export const DUE_WINDOWS = ['overdue', 'today', 'week', 'none'] as const;
export type DueWindow = (typeof DUE_WINDOWS)[number];

/** What a list asks of due dates, with `today` resolved once per request (so caches see the day). */
export interface DueFilter {
  window?: DueWindow;
  /** Strictly before this day. */
  before?: string;
  /** Strictly after this day. */
  after?: string;
  today: string;
}

/** Days a `week` covers: today and the six days after it. */
const WEEK_DAYS = 7;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Today as a UTC day. */
export function utcDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The UTC day `days` after `day`. */
export function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));
}

/** A `YYYY-MM-DD` query value that names a real day, else a 400 naming the parameter. */
export function parseDay(name: string, value: string): string {
  const match = DAY.exec(value);
  const valid = match !== null && utcDay(new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]))) === value;
  if (!valid)
    throw new ValidationError(
      `query parameter "${name}" must be a date as YYYY-MM-DD (such as ${utcDay()}), not "${value}"`,
    );
  return value;
}

/**
 * The UTC day a stored due date falls on: a plain date is that day; a date-time with an offset is
 * converted to UTC; one without an offset is read as UTC. Null when there is none or it does not parse.
 */
export function dueDayOf(dueDate: string | undefined): string | null {
  if (!dueDate) return null;
  if (DAY.test(dueDate)) return dueDate;
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(dueDate);
  const time = Date.parse(hasZone ? dueDate : `${dueDate}Z`);
  return Number.isNaN(time) ? null : utcDay(new Date(time));
}

/** Whether a card passes the due filter; `done` says it sits in its board's last column. */
export function dueMatches(filter: DueFilter, dueDate: string | undefined, done: boolean): boolean {
  const day = dueDayOf(dueDate);
  if (filter.window === 'none' && day !== null) return false;
  if (filter.window && filter.window !== 'none') {
    if (day === null) return false;
    if (filter.window === 'overdue' && (day >= filter.today || done)) return false;
    if (filter.window === 'today' && day !== filter.today) return false;
    if (filter.window === 'week' && (day < filter.today || day >= addDays(filter.today, WEEK_DAYS))) return false;
  }
  if (filter.before !== undefined && (day === null || day >= filter.before)) return false;
  if (filter.after !== undefined && (day === null || day <= filter.after)) return false;
  return true;
}

/** The filter a list's query values ask for, or undefined when they ask none. */
export function dueFilterOf(
  values: { due?: string; dueBefore?: string; dueAfter?: string },
  today = utcDay(),
): DueFilter | undefined {
  if (values.due === undefined && values.dueBefore === undefined && values.dueAfter === undefined) return undefined;
  const filter: DueFilter = { today };
  if (values.due !== undefined) {
    if (!(DUE_WINDOWS as readonly string[]).includes(values.due))
      throw new ValidationError(`query parameter "due" must be one of ${DUE_WINDOWS.join(', ')}, not "${values.due}"`);
    filter.window = values.due as DueWindow;
  }
  if (values.dueBefore !== undefined) filter.before = parseDay('dueBefore', values.dueBefore);
  if (values.dueAfter !== undefined) filter.after = parseDay('dueAfter', values.dueAfter);
  return filter;
}
