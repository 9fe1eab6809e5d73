/** Small display helpers: dates, colors, initials. */

/** The date part of an ISO 8601 date or date-time, as YYYY-MM-DD. */
export function datePart(iso: string): string {
  return iso.slice(0, 10);
}

function todayIso(now = new Date()): string {
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
}

/**
 * Due before today (local calendar) and not done. Done means the card sits in its board's last
 * column, whatever moved it there: a file moved by hand has no `completedAt`, and the service's
 * overdue filter asks the column too.
 */
export function isOverdue(dueDate: string | null, done: boolean, now = new Date()): boolean {
  return Boolean(dueDate) && !done && datePart(dueDate as string) < todayIso(now);
}

export function isDueToday(dueDate: string | null, now = new Date()): boolean {
  return Boolean(dueDate) && datePart(dueDate as string) === todayIso(now);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Mar 4" this year, "Mar 4, 2027" otherwise. */
export function shortDate(iso: string, now = new Date()): string {
  const [year, month, day] = datePart(iso).split('-').map(Number);
  if (!year || !month || !day) return iso;
  const label = `${MONTHS[month - 1]} ${day}`;
  return year === now.getFullYear() ? label : `${label}, ${year}`;
}

export function dateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${shortDate(iso)} ${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/** Black or white, whichever reads better on a hex background. */
/**
 * Black or white text on a label's colour: whichever reads better by WCAG's contrast ratio. Pure
 * black, because only black and white between them reach 4.5:1 on every colour.
 */
export function textOn(hex: string): string {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return '#fff';
  const full = match[1].length === 3 ? match[1].replace(/./g, (c) => c + c) : match[1];
  const background = relativeLuminance([0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)));
  const whiteTextContrast = (1 + 0.05) / (background + 0.05);
  const darkTextContrast = (background + 0.05) / (DARK_TEXT_LUMINANCE + 0.05);
  return darkTextContrast >= whiteTextContrast ? DARK_TEXT : '#ffffff';
}

const DARK_TEXT = '#000000';
const DARK_TEXT_LUMINANCE = 0;

/** WCAG 2 relative luminance of an sRGB colour given as 0-255 channels. */
function relativeLuminance(channels: number[]): number {
  const [r, g, b] = channels.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function initials(name: string): string {
  const parts = name
    .trim()
    .split(/[\s._-]+/)
    .filter(Boolean);
  const letters = parts.length > 1 ? parts[0][0] + parts[parts.length - 1][0] : (parts[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}

/** A stable pleasant hue per name, for assignee avatars. */
export function hueOf(name: string): number {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return hash % 360;
}

export function fileNameOf(path: string | undefined, fallbackId: string): string {
  if (!path) return `${fallbackId}.md`;
  return path.split(/[\\/]/).pop() ?? path;
}

/**
 * An id from a display name, by the server's slug rules (a-z, 0-9, '-'); the server checks ids
 * again. Used for new column ids and for the ids of inline card forms given only a name.
 */
export function slugOf(name: string, fallback = 'column'): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
  return slug || fallback;
}
