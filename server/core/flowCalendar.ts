/** UTC days, ISO weeks and percentiles for the flow metrics. */

export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

/** Midnight UTC of the day holding `at`. */
export const dayStart = (at: number): number => Math.floor(at / DAY_MS) * DAY_MS;

/** `YYYY-MM-DD` of the UTC day holding `at`. */
export const dayLabel = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** Midnight UTC of the Monday of the ISO week holding `at`. */
export function weekStart(at: number): number {
  const day = dayStart(at);
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 .. Sunday 6
  return day - weekday * DAY_MS;
}

/** `2026-W14`: the ISO week-numbering year is the one holding the week's Thursday. */
export function isoWeekLabel(monday: number): string {
  const thursday = new Date(monday + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const firstThursday = weekStart(Date.UTC(year, 0, 4)) + 3 * DAY_MS;
  const week = 1 + Math.round((thursday.getTime() - firstThursday) / WEEK_MS);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** Nearest-rank percentile of values sorted ascending: always one of the values, never interpolated. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}
