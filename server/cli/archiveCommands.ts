import { str, type Command } from './command';
import { enc, show, type Card } from './commandHelpers';
import { bold, plain } from './output';

/** `kanban archive` and `kanban restore`: thin over the archive routes (service/archive.ts). */

export const archiveCommand: Command = {
  name: 'archive',
  summary: 'Archive a card: it keeps its status but leaves the board and the lists (kanban list --archived shows them)',
  args: '<id>',
  positionals: [1, 1],
  writes: true,
  async run(ctx, parsed) {
    const answer = await ctx.call<Card>('POST', ctx.boardPath(`/tasks/${enc(parsed.positionals[0])}/archive`));
    await show(
      ctx,
      answer,
      () =>
        `archived ${bold(ctx.output, plain(answer.data.id))} from ${plain(answer.data.status)} (kanban restore ${plain(answer.data.id)} brings it back)`,
    );
  },
};

export const restoreCommand: Command = {
  name: 'restore',
  summary: "Bring an archived card back to its column, or a deleted one to the board's default column (or --status)",
  args: '<id>',
  options: { status: { type: 'string', value: '<column>', description: 'column to restore into' } },
  positionals: [1, 1],
  writes: true,
  async run(ctx, parsed) {
    const status = str(parsed, 'status');
    const answer = await ctx.call<Card>('POST', ctx.boardPath(`/tasks/${enc(parsed.positionals[0])}/restore`), {
      body: status === undefined ? {} : { status },
    });
    await show(
      ctx,
      answer,
      () => `restored ${bold(ctx.output, plain(answer.data.id))} to ${plain(answer.data.status)}`,
    );
  },
};
