import type { ImportedCard, ImportNote, ParsedSource } from './importTypes';
import { requireShape } from './importPlan';

/**
 * An Obsidian Kanban board note: frontmatter `kanban-plugin: basic`, a `## <lane>` heading per
 * column, and a task list item per card (`- [ ] text`, `- [x]` once complete; indented lines under it
 * continue the card). A lane holding `**Complete**` marks its cards complete; the lane after the
 * `***` rule, `## Archive`, holds archived cards; a `%% kanban:settings %%` block is settings. In a
 * card's first line, `#tag` is a label and `@{YYYY-MM-DD}` its date. Cards have no ids, so a card is
 * known by the note's name and its title (numbered when a title repeats).
 */

const ITEM = /^[-*] \[([ xX])\] ?(.*)$/;
const LANE = /^##\s+(.+?)\s*$/;
const TAG = /(^|\s)#([\p{L}\p{N}_/-]+)/gu;
const DATE = /@\{(\d{4}-\d{2}-\d{2})\}/;

interface Item {
  lane: string;
  checked: boolean;
  complete: boolean;
  archived: boolean;
  lines: string[];
}

/** A board note: frontmatter naming the plugin, or lanes of task list items. */
export function looksLikeObsidianKanban(text: string): boolean {
  if (/^---\n[\s\S]*?kanban-plugin:[\s\S]*?\n---/.test(text)) return true;
  return /^##\s+\S/m.test(text) && /^[-*] \[[ xX]\] /m.test(text);
}

function itemsOf(text: string): Item[] {
  const body = text
    .replace(/\r\n?/g, '\n')
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/%%\s*kanban:settings[\s\S]*?%%/g, '');
  const items: Item[] = [];
  let lane: string | undefined;
  let complete = false;
  let archived = false;
  let current: Item | undefined;
  for (const line of body.split('\n')) {
    const heading = LANE.exec(line);
    if (heading) {
      lane = heading[1];
      complete = false;
      current = undefined;
      continue;
    }
    if (/^\*\*\*\s*$/.test(line)) archived = true;
    if (/^\*\*Complete\*\*\s*$/.test(line)) complete = true;
    const item = ITEM.exec(line);
    if (item && lane !== undefined) {
      current = { lane, checked: item[1] !== ' ', complete, archived, lines: [item[2]] };
      items.push(current);
    } else if (current && /^\s+\S/.test(line)) current.lines.push(line.replace(/^(\t| {2,4})/, ''));
    else if (line.trim() !== '') current = undefined;
  }
  return items;
}

function cardOf(item: Item, key: string): ImportedCard {
  const [first, ...rest] = item.lines;
  const labels = [...first.matchAll(TAG)].map((m) => m[2]);
  const title = first.replace(TAG, '$1').replace(DATE, '').replace(/\s+/g, ' ').trim() || 'Untitled';
  return {
    importedFrom: key,
    title,
    body: rest.join('\n').trim(),
    column: item.archived ? [] : [item.lane],
    done: item.checked || item.complete,
    archived: item.archived,
    dueDate: DATE.exec(first)?.[1],
    labels,
    metadata: {},
    comments: [],
  };
}

export function parseObsidianKanban(data: unknown, source: string): ParsedSource {
  requireShape(typeof data === 'string', 'obsidian-kanban', 'the board note as text');
  const notes: ImportNote[] = [];
  const seen = new Map<string, number>();
  const cards = itemsOf(data).map((item) => {
    const card = cardOf(item, '');
    const count = (seen.get(card.title) ?? 0) + 1;
    seen.set(card.title, count);
    card.importedFrom = `obsidian-kanban:${source}:${card.title}${count > 1 ? `#${count}` : ''}`;
    return card;
  });
  if (cards.length === 0) notes.push({ title: source, reason: 'no "## lane" with "- [ ] card" items found' });
  return { cards, notes, createsColumns: true };
}
