import type { Command } from './command';
import { bold, dim, plain } from './output';
import { enc, show, type Card } from './commandHelpers';

/** `kanban tree`: the board's cards with their sub-cards under them, or one card's sub-tree. */

interface TreeNode {
  id: string;
  title: string;
  status: string;
  children: TreeNode[];
}

/** The cards as a forest: a card whose parent is not among them (or that has none) is a root. */
function forestOf(cards: Card[], rootId?: string): TreeNode[] {
  const nodes = new Map<string, TreeNode>();
  for (const card of cards)
    nodes.set(String(card.id), {
      id: String(card.id),
      title: String(card.title),
      status: String(card.status),
      children: [],
    });
  const roots: TreeNode[] = [];
  for (const card of cards) {
    const node = nodes.get(String(card.id)) as TreeNode;
    const parent = typeof card.parent === 'string' ? nodes.get(card.parent) : undefined;
    if (parent && card.id !== rootId) parent.children.push(node);
    else roots.push(node);
  }
  if (rootId === undefined) return roots;
  const root = nodes.get(rootId);
  return root ? [root] : [];
}

function treeLines(ctx: Parameters<Command['run']>[0], nodes: TreeNode[], depth: number, seen: Set<string>): string[] {
  return nodes.flatMap((node) => {
    // A hand-edited file could make a loop of parents: each card is printed once.
    if (seen.has(node.id)) return [];
    seen.add(node.id);
    const done = node.children.length ? dim(ctx.output, ` (${node.children.length} sub-card(s))`) : '';
    const line = `${'  '.repeat(depth)}${bold(ctx.output, plain(node.id))} ${dim(ctx.output, `[${plain(node.status)}]`)} ${plain(node.title)}${done}`;
    return [line, ...treeLines(ctx, node.children, depth + 1, seen)];
  });
}

export const treeCommand: Command = {
  name: 'tree',
  summary: 'Show cards with their sub-cards indented under them (one card: its sub-tree)',
  args: '[<id>]',
  positionals: [0, 1],
  writes: false,
  async run(ctx, parsed) {
    const [idish] = parsed.positionals;
    const rootId =
      idish === undefined ? undefined : String((await ctx.get<Card>(ctx.boardPath(`/tasks/${enc(idish)}`))).data.id);
    const answer = await ctx.get<Card[]>(ctx.boardPath('/tasks'), { fields: 'id,title,status,parent' });
    const forest = forestOf(answer.data ?? [], rootId);
    await show(ctx, { ...answer, data: forest }, () =>
      forest.length ? treeLines(ctx, forest, 0, new Set()).join('\n') : dim(ctx.output, 'no cards'),
    );
  },
};
