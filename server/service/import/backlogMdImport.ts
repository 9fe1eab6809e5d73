import type { ImportedCard, ImportNote, ParsedSource, SourceFiles } from './importTypes';
import { configOf, dayOf, filesOf, frontmatterOf, listOf, textOf, type Json } from './markdownSource';

/**
 * A Backlog.md project: the files of its `backlog/` folder, paths relative to it. Each task is a
 * Markdown file with YAML frontmatter (id, title, status, assignee, labels, milestone,
 * dependencies, parent_task_id, priority, due_date, ordinal) under `tasks/`, `completed/`
 * (finished and put away), `archive/tasks/` (archived) or `drafts/`. The body holds sections
 * (Description, Acceptance Criteria, Definition of Done, Implementation Plan and Notes, Final
 * Summary) fenced by HTML comments, and numbered criteria (`- [ ] #1 text`).
 */

export const BACKLOG_KEY_PREFIX = 'backlog-md:';

const FOLDERS: { prefix: string; place: 'live' | 'completed' | 'archived' | 'draft' }[] = [
  { prefix: 'tasks/', place: 'live' },
  { prefix: 'completed/', place: 'completed' },
  { prefix: 'archive/tasks/', place: 'archived' },
  { prefix: 'drafts/', place: 'draft' },
];

/** The key of a Backlog.md id in `importedFrom`: ids are matched case-insensitively, as its CLI does. */
export function backlogKey(id: string): string {
  return `${BACKLOG_KEY_PREFIX}${id.trim().toUpperCase()}`;
}

/**
 * The body as card content: the section fences and the criteria numbers are Backlog.md's
 * bookkeeping, not text; the Description heading goes, as the description is the card's text.
 */
export function backlogBodyToContent(body: string): string {
  return body
    .replace(/^[ \t]*<!--\s*(SECTION:[A-Z_]+|AC|DOD):(BEGIN|END)\s*-->[ \t]*\n?/gm, '')
    .replace(/^([ \t]*[-*] \[[ xX]\]) #\d+ /gm, '$1 ')
    .replace(/^\s*## Description[ \t]*\n/, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Milestone ids (`m-0`) to their titles, from `milestones/` and `archive/milestones/`. */
function milestoneTitles(files: SourceFiles['files'], notes: ImportNote[]): Map<string, string> {
  const titles = new Map<string, string>();
  for (const file of files.filter((f) => /^(archive\/)?milestones\/[^/]+\.md$/.test(f.path))) {
    const parsed = frontmatterOf(file, notes);
    const id = textOf(parsed?.front.id);
    const title = textOf(parsed?.front.title);
    if (id && title) titles.set(id.toLowerCase(), title);
  }
  return titles;
}

function cardOf(
  front: Json,
  body: string,
  place: (typeof FOLDERS)[number]['place'],
  milestones: Map<string, string>,
): ImportedCard {
  const id = textOf(front.id)!;
  const assignees = listOf(front.assignee).map((a) => a.replace(/^@/, ''));
  const milestoneRef = textOf(front.milestone);
  const milestone = milestoneRef ? (milestones.get(milestoneRef.toLowerCase()) ?? milestoneRef) : undefined;
  const parent = textOf(front.parent_task_id) ?? textOf(front.parent);
  return {
    importedFrom: backlogKey(id),
    title: textOf(front.title) ?? id,
    body: backlogBodyToContent(body),
    column: [textOf(front.status) ?? (place === 'draft' ? 'Draft' : '')],
    done: place === 'completed',
    archived: place === 'archived',
    priority: textOf(front.priority),
    assignee: assignees[0],
    dueDate: dayOf(front.due_date),
    labels: [...listOf(front.labels), ...(milestone ? [milestone] : [])],
    groupedLabels: milestone ? [{ name: milestone, group: 'milestone' }] : [],
    metadata: assignees.length > 1 ? { assignees } : {},
    comments: [],
    blockedBy: listOf(front.dependencies).map(backlogKey),
    parent: parent ? backlogKey(parent) : undefined,
  };
}

function ordinalOf(front: Json): number {
  const ordinal = Number(front.ordinal);
  return Number.isFinite(ordinal) ? ordinal : Number.MAX_SAFE_INTEGER;
}

export function parseBacklogMd(data: unknown): ParsedSource {
  const files = filesOf(data, 'backlog-md', "the files of the project's backlog/ folder, paths relative to it");
  const notes: ImportNote[] = [];
  if (!files.some((f) => f.path === 'config.yml'))
    notes.push({ title: 'config.yml', reason: 'missing; is this a Backlog.md backlog/ folder?' });
  const config = configOf(files, 'config.yml', notes);
  // Backlog.md's last status is its finished one, whatever the board here calls its last column.
  const statuses = listOf(config?.statuses);
  const finished = statuses[statuses.length - 1]?.toLowerCase();
  const milestones = milestoneTitles(files, notes);
  const found: { card: ImportedCard; folder: number; ordinal: number; path: string }[] = [];
  for (const file of files) {
    const folder = FOLDERS.findIndex(
      (f) => file.path.startsWith(f.prefix) && !file.path.slice(f.prefix.length).includes('/'),
    );
    if (folder < 0 || !file.path.endsWith('.md')) continue;
    const parsed = frontmatterOf(file, notes);
    if (!parsed) continue;
    if (!textOf(parsed.front.id)) {
      notes.push({ title: file.path, reason: 'no id in its frontmatter; left out' });
      continue;
    }
    const card = cardOf(parsed.front, parsed.body, FOLDERS[folder].place, milestones);
    if (finished && textOf(parsed.front.status)?.toLowerCase() === finished) card.done = true;
    found.push({ card, folder, ordinal: ordinalOf(parsed.front), path: file.path });
  }
  found.sort(
    (a, b) => a.folder - b.folder || a.ordinal - b.ordinal || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  return { cards: found.map((f) => f.card), notes, createsColumns: true };
}
