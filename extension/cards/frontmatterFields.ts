/**
 * Where the values of a card file's frontmatter fields sit, line by line. Deliberately not a YAML
 * parser: the file may be half-typed (that is when completion runs) or broken (the service already
 * says so), and every value needs its exact column range, which a parsed document does not keep.
 */

/** The fields the editor completes and checks. */
export type CheckedKey = 'status' | 'priority' | 'labels' | 'assignee';

const CHECKED_KEYS: readonly string[] = ['status', 'priority', 'labels', 'assignee'];

/** One value in the frontmatter: a scalar, or one item of the labels list. */
export interface FieldValue {
  key: CheckedKey;
  value: string;
  line: number;
  start: number;
  end: number;
}

/** Where the cursor is, when it is on a value of a checked field: the typed part starts at `start`. */
export interface FieldAtCursor {
  key: CheckedKey;
  line: number;
  start: number;
}

const TOP_LEVEL_KEY = /^([A-Za-z_][\w-]*):(.*)$/;
const LIST_ITEM = /^(\s*-\s+)(.*)$/;

/** The lines between the opening `---` and the closing one (or the end while it is being typed). */
export function frontmatterLines(lines: readonly string[]): { first: number; end: number } | undefined {
  if (lines[0]?.trimEnd() !== '---') return undefined;
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---');
  return { first: 1, end: close < 0 ? lines.length : close };
}

function isChecked(key: string): key is CheckedKey {
  return CHECKED_KEYS.includes(key);
}

/** A scalar token starting at `from`: quotes and a trailing comment are not part of the value. */
function tokenAt(text: string, from: number): { value: string; start: number; end: number } | undefined {
  let start = from;
  while (text[start] === ' ' || text[start] === '\t') start++;
  const rest = text.slice(start);
  const quoted = /^(["'])(.*?)\1/.exec(rest);
  if (quoted) return { value: quoted[2], start: start + 1, end: start + 1 + quoted[2].length };
  const bare = /^[^#]*?(?=\s+#|\s*$)/.exec(rest)?.[0] ?? '';
  return bare ? { value: bare, start, end: start + bare.length } : undefined;
}

/** The items of an inline list `[a, b]` that starts after `from`. */
function inlineItems(text: string, from: number): { value: string; start: number; end: number }[] {
  const open = text.indexOf('[', from);
  const close = text.indexOf(']', open);
  const inner = text.slice(open + 1, close < 0 ? text.length : close);
  const items: { value: string; start: number; end: number }[] = [];
  let offset = open + 1;
  for (const part of inner.split(',')) {
    const item = tokenAt(part, 0);
    if (item) items.push({ value: item.value, start: offset + item.start, end: offset + item.end });
    offset += part.length + 1;
  }
  return items;
}

/** Every value of the checked fields, with its range. */
export function fieldValues(lines: readonly string[]): FieldValue[] {
  const block = frontmatterLines(lines);
  if (!block) return [];
  const values: FieldValue[] = [];
  let listOf: CheckedKey | undefined;
  for (let line = block.first; line < block.end; line++) {
    const text = lines[line];
    const item = LIST_ITEM.exec(text);
    if (item && listOf) {
      const token = tokenAt(text, item[1].length);
      if (token) values.push({ key: listOf, line, ...token });
      continue;
    }
    const field = TOP_LEVEL_KEY.exec(text);
    listOf = undefined;
    if (!field || !isChecked(field[1])) continue;
    const key = field[1];
    const from = key.length + 1;
    if (key === 'labels') {
      if (field[2].trim() === '') listOf = key;
      else if (field[2].trimStart().startsWith('['))
        for (const label of inlineItems(text, from)) values.push({ key, line, ...label });
      continue;
    }
    const token = tokenAt(text, from);
    if (token) values.push({ key, line, ...token });
  }
  return values;
}

/** The field whose value the cursor is typing, if any (a labels item in either list form too). */
export function fieldAtCursor(lines: readonly string[], line: number, character: number): FieldAtCursor | undefined {
  const block = frontmatterLines(lines);
  if (!block || line < block.first || line >= block.end) return undefined;
  const before = lines[line].slice(0, character);
  const field = TOP_LEVEL_KEY.exec(before);
  if (field) {
    if (!isChecked(field[1])) return undefined;
    const separator = Math.max(before.lastIndexOf(':'), before.lastIndexOf('['), before.lastIndexOf(','));
    if (field[1] === 'labels' && !before.includes('[')) return undefined;
    return { key: field[1], line, start: typedFrom(before, separator + 1) };
  }
  const item = LIST_ITEM.exec(before);
  if (!item) return undefined;
  for (let above = line - 1; above >= block.first; above--) {
    if (LIST_ITEM.test(lines[above])) continue;
    const owner = TOP_LEVEL_KEY.exec(lines[above]);
    return owner?.[1] === 'labels' && owner[2].trim() === ''
      ? { key: 'labels', line, start: typedFrom(before, item[1].length) }
      : undefined;
  }
  return undefined;
}

/** Where the typed word starts: after the separator, the blanks and an opening quote. */
function typedFrom(before: string, from: number): number {
  let start = from;
  while (before[start] === ' ' || before[start] === '"' || before[start] === "'") start++;
  return start;
}
