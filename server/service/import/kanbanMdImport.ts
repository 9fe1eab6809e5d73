import type { ImportedCard, ImportNote, ParsedSource } from './importTypes';
import { configOf, dayOf, filesOf, frontmatterOf, listOf, textOf, type Json } from './markdownSource';

/**
 * A kanban-md board: the files of its `kanban/` folder, paths relative to it. `config.yml` lists
 * the statuses; each task is `tasks/<id>-<slug>.md` with YAML frontmatter (id, title, status,
 * priority, assignee, tags, due, parent, depends_on, blocked, block_reason, class, estimate) and
 * its description as the body. Ids are numbers, unique on the board.
 */

const keyOf = (id: unknown) => `kanban-md:${textOf(id)}`;

/** kanban-md keeps archived tasks in a status of that name; here they are archived cards. */
const ARCHIVED = 'archived';

function cardOf(front: Json, body: string): ImportedCard {
  const status = textOf(front.status) ?? '';
  const blockReason = textOf(front.block_reason);
  const metadata: Json = {};
  for (const field of ['class', 'estimate', 'branch'] as const)
    if (textOf(front[field])) metadata[field] = textOf(front[field]);
  if (front.blocked === true || front.blocked === 'true') metadata.blocked = blockReason ?? true;
  return {
    importedFrom: keyOf(front.id),
    title: textOf(front.title) ?? `Task ${textOf(front.id)}`,
    body: body.trim(),
    column: status.toLowerCase() === ARCHIVED ? [] : [status],
    archived: status.toLowerCase() === ARCHIVED,
    priority: textOf(front.priority),
    assignee: textOf(front.assignee),
    dueDate: dayOf(front.due),
    labels: listOf(front.tags),
    metadata,
    comments: [],
    blockedBy: listOf(front.depends_on).map(keyOf),
    parent: textOf(front.parent) ? keyOf(front.parent) : undefined,
  };
}

export function parseKanbanMd(data: unknown): ParsedSource {
  const files = filesOf(data, 'kanban-md', "the files of the project's kanban/ folder, paths relative to it");
  const notes: ImportNote[] = [];
  configOf(files, 'config.yml', notes);
  const cards: { card: ImportedCard; id: number }[] = [];
  for (const file of files.filter((f) => /^tasks\/[^/]+\.md$/.test(f.path))) {
    const parsed = frontmatterOf(file, notes);
    if (!parsed) continue;
    if (textOf(parsed.front.id) === undefined) {
      notes.push({ title: file.path, reason: 'no id in its frontmatter; left out' });
      continue;
    }
    cards.push({ card: cardOf(parsed.front, parsed.body), id: Number(parsed.front.id) });
  }
  cards.sort((a, b) => a.id - b.id);
  return { cards: cards.map((c) => c.card), notes, createsColumns: true };
}
