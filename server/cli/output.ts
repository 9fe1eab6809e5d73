/**
 * What the command line prints: aligned tables for people, colour only on a terminal that wants
 * it, and nothing but the REST `data` under --json.
 */

export interface Output {
  color: boolean;
  /** Terminal width, or null when stdout is not a terminal (no truncation then). */
  width: number | null;
  out(text: string): void;
  err(text: string): void;
}

/** Colour when stdout is a terminal, unless NO_COLOR is set (https://no-color.org); FORCE_COLOR asks for it anyway. */
export function wantsColor(env: NodeJS.ProcessEnv, isTty: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return isTty && env.TERM !== 'dumb';
}

export function processOutput(env: NodeJS.ProcessEnv = process.env): Output {
  const isTty = Boolean(process.stdout.isTTY);
  return {
    color: wantsColor(env, isTty),
    width: isTty ? process.stdout.columns || 100 : null,
    out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  };
}

const ESC = '\u001b[';
export const ANSI_PATTERN = /\u001b\[[0-9;]*m/g;

export function paint(output: Output, codes: string, text: string): string {
  return output.color && text ? `${ESC}${codes}m${text}${ESC}0m` : text;
}

export const bold = (o: Output, text: string) => paint(o, '1', text);
export const dim = (o: Output, text: string) => paint(o, '2', text);

const PRIORITY_CODES: Record<string, string> = { critical: '1;31', high: '31', medium: '33', low: '2' };

export function priorityText(o: Output, priority: unknown): string {
  const text = priority === undefined || priority === null ? '' : String(priority);
  return paint(o, PRIORITY_CODES[text] ?? '0', text);
}

/** A label in its configured colour (`#rrggbb`), else cyan. */
export function labelText(o: Output, name: string, color?: string): string {
  const hex = /^#?([0-9a-f]{6})$/i.exec(color ?? '')?.[1];
  if (!hex) return paint(o, '36', name);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return paint(o, `38;2;${r};${g};${b}`, name);
}

export function visibleLength(text: string): number {
  return [...text.replace(ANSI_PATTERN, '')].length;
}

function truncate(text: string, max: number): string {
  if (max < 2 || visibleLength(text) <= max) return text;
  // Only plain cells are truncated (titles); coloured cells are short.
  const chars = [...text.replace(ANSI_PATTERN, '')];
  return `${chars.slice(0, max - 1).join('')}…`;
}

export interface Column<T> {
  header: string;
  cell(row: T): string;
  /** The one column that gives up width when the table is wider than the terminal. */
  shrink?: boolean;
}

/** Rows aligned under bold headers; on a terminal the shrinkable column is cut to fit. */
export function table<T>(o: Output, rows: T[], columns: Column<T>[]): string {
  const cells = rows.map((row) => columns.map((c) => c.cell(row).replace(/\s*\n\s*/g, ' ')));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => visibleLength(r[i]))));
  const gap = 2;
  const shrinkAt = columns.findIndex((c) => c.shrink);
  if (o.width !== null && shrinkAt >= 0) {
    const total = widths.reduce((a, b) => a + b, 0) + gap * (columns.length - 1);
    if (total > o.width)
      widths[shrinkAt] = Math.max(columns[shrinkAt].header.length, 12, widths[shrinkAt] - (total - o.width));
  }
  const line = (values: string[]) =>
    values
      .map((value, i) => {
        const shown = i === shrinkAt ? truncate(value, widths[i]) : value;
        return i === values.length - 1 ? shown : shown + ' '.repeat(Math.max(0, widths[i] - visibleLength(shown)));
      })
      .join(' '.repeat(gap))
      .trimEnd();
  return [bold(o, line(columns.map((c) => c.header))), ...cells.map(line)].join('\n');
}

/** `key  value` lines, keys aligned, for one object. */
export function keyValues(o: Output, pairs: [string, string][]): string {
  const width = Math.max(0, ...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${dim(o, k.padEnd(width))}  ${v}`).join('\n');
}

/** A value as a person reads it in a cell: scalars as is, the rest as compact JSON. */
export function plain(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  return JSON.stringify(value);
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
