import { NotFoundError, ValidationError } from './errors';

/**
 * A card's checklist is the Markdown task list items in its content, so the file stays plain
 * Markdown and a hand edit of a `- [ ]` line is a checklist edit. The rule:
 *
 * - an item is a line `<indent><marker> [ ] text` or `[x]`/`[X]`, marker `-`, `*` or `+`, at any
 *   indentation (nested items count: they are items a reader ticks too);
 * - lines inside fenced code blocks (``` or ~~~) are not items;
 * - items are numbered from 0 in the order they appear; that index is what the routes take.
 */

export interface ChecklistItem {
  index: number;
  text: string;
  done: boolean;
}

export interface ChecklistProgress {
  done: number;
  total: number;
}

const ITEM = /^(\s*[-*+][ \t]+\[)([ xX])(\][ \t]?)(.*)$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** An item as found in the content: its line number and the parts a change rewrites. */
interface FoundItem extends ChecklistItem {
  line: number;
  /** Everything before the tick mark, e.g. `  - [`. */
  head: string;
  /** The tick mark as written: ` `, `x` or `X`. */
  mark: string;
  /** `] ` after the tick mark. */
  close: string;
}

function findItems(lines: readonly string[]): FoundItem[] {
  const items: FoundItem[] = [];
  let fence: string | null = null;
  lines.forEach((line, at) => {
    const opener = FENCE.exec(line)?.[1];
    if (fence !== null) {
      // A fence closes with the same character, at least as long, and nothing after it.
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = null;
      return;
    }
    if (opener) {
      fence = opener;
      return;
    }
    const match = ITEM.exec(line);
    if (match)
      items.push({
        index: items.length,
        line: at,
        head: match[1],
        mark: match[2],
        close: match[3],
        done: match[2] !== ' ',
        text: match[4].trimEnd(),
      });
  });
  return items;
}

/** The checklist items of Markdown content, in order. */
export function checklistItems(content: string): ChecklistItem[] {
  return findItems(content.split('\n')).map(({ index, text, done }) => ({ index, text, done }));
}

/**
 * The content without its checklist item lines: what a description shows beside a checklist of its
 * own, so no item appears twice (one of them a box that cannot be ticked).
 */
export function withoutChecklistItems(content: string): string {
  const lines = content.split('\n');
  const itemLines = new Set(findItems(lines).map((item) => item.line));
  return lines.filter((_, line) => !itemLines.has(line)).join('\n');
}

/** How many items are ticked and how many there are; null when the content has none. */
export function checklistProgress(content: string): ChecklistProgress | null {
  const items = findItems(content.split('\n'));
  if (items.length === 0) return null;
  return { done: items.filter((item) => item.done).length, total: items.length };
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function checkItemText(text: string): string {
  const oneLine = text.trim();
  if (oneLine === '') throw new ValidationError('checklist item text must not be empty');
  if (/[\r\n]/.test(oneLine)) throw new ValidationError('checklist item text must be one line');
  return oneLine;
}

function itemAt(items: FoundItem[], index: number): FoundItem {
  const item = items[index];
  if (!Number.isInteger(index) || item === undefined) {
    const range =
      items.length === 0 ? 'the card has no checklist items' : `items are numbered 0 to ${items.length - 1}`;
    throw new NotFoundError(`no checklist item ${index}: ${range}`);
  }
  return item;
}

/**
 * Content with one item added: after the last item of the last task list (same indentation and
 * marker), or, when there is none, under a new `## Checklist` heading at the end.
 */
export function addChecklistItem(content: string, text: string): string {
  const itemText = checkItemText(text);
  const lines = content.split('\n');
  const items = findItems(lines);
  const last = items[items.length - 1];
  if (last) {
    // Same indentation and marker as the last item, so a nested last item gets a nested sibling;
    // after the lines that continue its text (indented deeper), so they stay with it.
    const indent = last.head.length - last.head.trimStart().length;
    let after = last.line + 1;
    while (
      after < lines.length &&
      lines[after].trim() !== '' &&
      indentOf(lines[after]) > indent &&
      !ITEM.test(lines[after])
    )
      after++;
    lines.splice(after, 0, `${last.head} ] ${itemText}`);
    return lines.join('\n');
  }
  const body = content.replace(/\n+$/, '');
  return `${body}\n\n## Checklist\n\n- [ ] ${itemText}\n`;
}

/** Content with item `index` ticked or unticked and/or its text replaced. */
export function editChecklistItem(content: string, index: number, change: { done?: boolean; text?: string }): string {
  const lines = content.split('\n');
  const item = itemAt(findItems(lines), index);
  // An unchanged state keeps its mark as written (`X` stays `X`), so the diff is only what changed.
  const mark = change.done === undefined || change.done === item.done ? item.mark : change.done ? 'x' : ' ';
  const text = change.text === undefined ? item.text : checkItemText(change.text);
  lines[item.line] = `${item.head}${mark}${item.close}${text}`;
  return lines.join('\n');
}

/** Content without item `index` (its line removed; nested lines under it stay). */
export function removeChecklistItem(content: string, index: number): string {
  const lines = content.split('\n');
  const item = itemAt(findItems(lines), index);
  lines.splice(item.line, 1);
  return lines.join('\n');
}
