import type { Command, Parsed } from './command';
import type { Answer, Context } from './context';
import { bold, dim, plain } from './output';
import { UsageError } from './usage';
import { helpFor } from './command';

/**
 * Checklist commands: a card's checklist is the task list items of its Markdown, so these are
 * small content edits through the checklist routes (each onto the version just read: If-Match).
 */

type Card = Record<string, unknown>;
interface Item {
  index: number;
  text: string;
  done: boolean;
}

const enc = encodeURIComponent;

function print(ctx: Context, answer: Answer, human: () => string): void {
  if (ctx.json) ctx.printJson(answer);
  else ctx.output.out(human());
}

/** The items as `[x] 0  text` lines, and the progress under them. */
export function checklistText(ctx: Context, card: Card): string {
  const items = (Array.isArray(card.checklistItems) ? card.checklistItems : []) as Item[];
  if (items.length === 0) return dim(ctx.output, 'no checklist items');
  const width = String(items.length - 1).length;
  const lines = items.map(
    (item) => `${item.done ? '[x]' : '[ ]'} ${String(item.index).padStart(width)}  ${plain(item.text)}`,
  );
  const done = items.filter((item) => item.done).length;
  return [...lines, dim(ctx.output, `${done}/${items.length} done`)].join('\n');
}

function indexOf(command: Command, text: string): number {
  if (!/^\d+$/.test(text))
    throw new UsageError(
      `the item index is a whole number from 0 (see kanban checklist <id>), not "${text}"`,
      helpFor(command),
    );
  return Number(text);
}

/** Read the card (full id and version), then change it only if it is still that version. */
async function change(
  ctx: Context,
  idish: string,
  method: string,
  suffix: string,
  body?: unknown,
): Promise<Answer<Card>> {
  const current = await ctx.get<Card>(ctx.boardPath(`/tasks/${enc(idish)}`));
  const id = enc(plain(current.data.id));
  return ctx.call<Card>(method, ctx.boardPath(`/tasks/${id}/checklist${suffix}`), {
    ...(body === undefined ? {} : { body }),
    ifMatch: current.etag,
  });
}

function tickCommand(name: 'check' | 'uncheck'): Command {
  const done = name === 'check';
  const command: Command = {
    name,
    summary: done ? 'Tick checklist item <index> of a card' : 'Untick checklist item <index> of a card',
    args: '<id> <index>',
    positionals: [2, 2],
    writes: true,
    async run(ctx, parsed: Parsed) {
      const [id, index] = parsed.positionals;
      const answer = await change(ctx, id, 'PATCH', `/${indexOf(command, index)}`, { done });
      print(
        ctx,
        answer,
        () =>
          `${done ? 'ticked' : 'unticked'} item ${index} of ${bold(ctx.output, plain(answer.data.id))}\n${checklistText(ctx, answer.data)}`,
      );
    },
  };
  return command;
}

const checklistCommand: Command = {
  name: 'checklist',
  summary: 'Show the checklist of a card; add or remove items',
  args: '<id> | add <id> <text> | remove <id> <index>',
  details: [
    'checklist <id>               the items with their index and whether they are ticked',
    'checklist add <id> <text>    a new item after the last one (or under a new ## Checklist heading)',
    'checklist remove <id> <index>  remove an item (its line in the card text)',
  ],
  positionals: [1, 3],
  writes: (parsed) => parsed.positionals.length > 1,
  async run(ctx, parsed) {
    const [first, id, arg] = parsed.positionals;
    if (parsed.positionals.length === 1) {
      const answer = await ctx.get<Card>(ctx.boardPath(`/tasks/${enc(first)}`));
      print(ctx, answer, () => `${bold(ctx.output, plain(answer.data.title))}\n${checklistText(ctx, answer.data)}`);
      return;
    }
    if (arg === undefined)
      throw new UsageError(
        `checklist ${first} needs a card id and ${first === 'add' ? 'the item text' : 'an item index'}`,
        helpFor(checklistCommand),
      );
    let answer: Answer<Card>;
    if (first === 'add') answer = await change(ctx, id, 'POST', '', { text: arg });
    else if (first === 'remove') answer = await change(ctx, id, 'DELETE', `/${indexOf(checklistCommand, arg)}`);
    else throw new UsageError(`unknown checklist action "${first}": use add or remove`, helpFor(checklistCommand));
    print(
      ctx,
      answer,
      () =>
        `${first === 'add' ? 'added to' : 'removed from'} ${bold(ctx.output, plain(answer.data.id))}\n${checklistText(ctx, answer.data)}`,
    );
  },
};

export const checklistCommands: Command[] = [checklistCommand, tickCommand('check'), tickCommand('uncheck')];
