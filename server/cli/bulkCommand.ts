import { helpFor, type Command } from './command';
import { UsageError } from './usage';
import { bold, plain } from './output';

/** `kanban bulk`: the short form of POST /tasks/bulk for a shell; every other shape is `kanban api post-tasks-bulk`. */

type Card = Record<string, unknown>;

/** Action -> how many values it takes before the ids, and the change they make. */
const ACTIONS: Record<string, { values: number; change(values: string[]): Record<string, unknown> }> = {
  move: { values: 1, change: ([status]) => ({ status }) },
  priority: { values: 1, change: ([priority]) => ({ priority }) },
  assign: { values: 1, change: ([assignee]) => ({ assignee: assignee === '' ? null : assignee }) },
  archive: { values: 0, change: () => ({ archive: true }) },
  delete: { values: 0, change: () => ({ delete: true }) },
  restore: { values: 0, change: () => ({ restore: true }) },
};

export const bulkCommand: Command = {
  name: 'bulk',
  summary: 'Change several cards at once, all or nothing: move, priority, assign, archive, delete or restore',
  args: '<move|priority|assign|archive|delete|restore> [value] <id...>',
  details: [
    'kanban bulk move done fix-login deploy      (to the top of done, in this order)',
    'kanban bulk priority high fix-login deploy ; kanban bulk assign ada a b ; kanban bulk assign "" a b',
    'kanban bulk archive a b ; kanban bulk delete a b ; kanban bulk restore a b   (archived: to their column; deleted: to the default column)',
    'Labels and per-card values: kanban api post-tasks-bulk --data \'{"ids": [...], "change": {"labels": {"add": ["x"]}}}\'',
  ],
  positionals: [2, 1000],
  writes: true,
  async run(ctx, parsed) {
    const [action, ...rest] = parsed.positionals;
    const spec = ACTIONS[action];
    if (!spec)
      throw new UsageError(
        `unknown bulk action "${action}": use ${Object.keys(ACTIONS).join(', ')}`,
        helpFor(bulkCommand),
      );
    const values = rest.slice(0, spec.values);
    const ids = rest.slice(spec.values);
    if (ids.length === 0)
      throw new UsageError(
        `bulk ${action} needs ${spec.values ? 'a value and ' : ''}at least one card id`,
        helpFor(bulkCommand),
      );
    const answer = await ctx.call<Card[]>('POST', ctx.boardPath('/tasks/bulk'), {
      body: { ids, change: spec.change(values) },
    });
    if (ctx.json) return ctx.printJson(answer);
    for (const card of answer.data)
      ctx.output.out(
        `${bold(ctx.output, plain(card.id))}  ${plain(card.archivedAt ? 'archived' : card.status)}  ${plain(card.priority)}  ${plain(card.assignee ?? '')}`.trimEnd(),
      );
    ctx.output.out(`${answer.data.length} card(s) changed`);
  },
};
