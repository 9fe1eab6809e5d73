import type { ImportedCard, ImportNote, ParsedSource } from './importTypes';
import { requireShape } from './importPlan';

/**
 * A Trello board JSON export (board menu, "Print, export and share", "Export as JSON"). A card goes
 * to the column whose id or name matches its list's name, else to the board's default status.
 * Checklists become `## <checklist name>` and `- [ ] item` lines under the description; comments
 * are the `commentCard` actions. Archived (closed) cards and cards of archived lists are left out.
 */

type Json = Record<string, any>;

function byId(list: unknown): Map<string, Json> {
  return new Map(
    (Array.isArray(list) ? list : []).filter((x) => x && typeof x.id === 'string').map((x: Json) => [x.id, x]),
  );
}

function checklistText(checklists: Json[]): string {
  return checklists
    .map((list) => {
      const items = [...(Array.isArray(list.checkItems) ? list.checkItems : [])].sort(
        (a, b) => (a.pos ?? 0) - (b.pos ?? 0),
      );
      const lines = items.map(
        (item: Json) =>
          `- [${item.state === 'complete' ? 'x' : ' '}] ${String(item.name ?? '').replace(/\s*\n\s*/g, ' ')}`,
      );
      return [`## ${list.name || 'Checklist'}`, '', ...lines].join('\n');
    })
    .join('\n\n');
}

export function parseTrello(data: unknown): ParsedSource {
  const board = data as Json;
  requireShape(
    Boolean(board) && typeof board === 'object' && Array.isArray(board.cards) && Array.isArray(board.lists),
    'trello',
    'a Trello board JSON export (an object with "lists" and "cards")',
  );
  const lists = byId(board.lists);
  const members = byId(board.members);
  const labels = byId(board.labels);
  const checklists = (Array.isArray(board.checklists) ? board.checklists : []) as Json[];
  const comments = ((Array.isArray(board.actions) ? board.actions : []) as Json[])
    .filter((a) => a?.type === 'commentCard')
    .reverse();
  const notes: ImportNote[] = [];
  const cards: ImportedCard[] = [];
  for (const card of board.cards as Json[]) {
    if (!card || typeof card.id !== 'string' || typeof card.name !== 'string') continue;
    const list = lists.get(card.idList);
    if (card.closed || list?.closed) {
      notes.push({
        title: card.name,
        reason: card.closed
          ? 'archived in Trello; left out'
          : `its list "${list?.name}" is archived in Trello; left out`,
      });
      continue;
    }
    const ownLists = checklists.filter((c) => c.idCard === card.id);
    const body = [typeof card.desc === 'string' ? card.desc.trim() : '', checklistText(ownLists)]
      .filter(Boolean)
      .join('\n\n');
    const cardLabels = Array.isArray(card.labels)
      ? card.labels
      : (card.idLabels ?? []).map((id: string) => labels.get(id));
    const people = ((card.idMembers ?? []) as string[])
      .map((id) => members.get(id))
      .filter(Boolean)
      .map((m) => m!.fullName || m!.username);
    const metadata: Record<string, unknown> = {};
    if (people.length > 1) metadata.assignees = people;
    if (typeof card.shortUrl === 'string') metadata.trelloUrl = card.shortUrl;
    cards.push({
      importedFrom: `trello:${card.id}`,
      title: card.name,
      body,
      column: list?.name,
      assignee: people[0],
      dueDate: typeof card.due === 'string' ? card.due : undefined,
      labels: (cardLabels as Json[])
        .map((l) => l?.name || l?.color)
        .filter((n): n is string => typeof n === 'string' && n !== ''),
      metadata,
      comments: comments
        .filter((a) => a.data?.card?.id === card.id)
        .map((a) => ({
          author: a.memberCreator?.fullName || a.memberCreator?.username || 'unknown',
          content: String(a.data?.text ?? ''),
          created: a.date,
        })),
    });
  }
  return { cards, notes };
}
