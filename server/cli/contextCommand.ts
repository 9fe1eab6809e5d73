import * as path from 'node:path';
import type { BoardContext } from '../core/boardContext';
import { contextMarkdown } from '../core/contextMarkdown';
import { sectionBlock, withSection } from '../core/markedSection';
import { str, type Command } from './command';
import type { Context } from './context';
import { readTextOrNull, writeIfChanged } from './localFiles';

/**
 * `kanban context`: the board as an agent should see it before it picks (GET /context), printed, or
 * kept between `<!-- kanban:context -->` markers in a file agents read at start (AGENTS.md).
 */

/** One block a board: `kanban:context` for the default board, `kanban:context:<id>` for one named with --board. */
const sectionOf = (board: string | undefined) => (board === undefined ? 'context' : `context:${board}`);

export const contextCommand: Command = {
  name: 'context',
  summary: 'The board for agents: in progress (claims, states), awaiting input, blocked, next five to pick',
  details: [
    'Each card is listed once, in the first section that fits: awaiting input (its agent reported',
    'awaitingInput), blocked (an open card in its blockedBy), in progress (from the start column up to',
    'the last, or claimed). Next is what kanban pick would hand out, in that order.',
    '--write-to keeps the summary between <!-- kanban:context --> and <!-- /kanban:context --> in the',
    'file (added at its end the first time; the rest is left alone) and rewrites it only when the board',
    'changed: there it leaves out the time left on claims, which would change it every minute. With',
    '--board, the markers name the board (<!-- kanban:context:<board> -->), so boards share a file.',
  ],
  options: {
    'write-to': {
      type: 'string',
      value: '<file>',
      description: 'keep the summary up to date between markers in this file (e.g. AGENTS.md)',
    },
  },
  writes: false,
  async run(ctx, parsed) {
    const answer = await ctx.get<BoardContext>(ctx.boardPath('/context'));
    const file = str(parsed, 'write-to');
    if (file !== undefined) return writeTo(ctx, file, answer.data);
    if (ctx.json) return ctx.printJson(answer);
    ctx.output.out(contextMarkdown(answer.data, { now: Date.now() }));
  },
};

async function writeTo(ctx: Context, file: string, context: BoardContext): Promise<void> {
  // Relative to where kanban runs, as any path typed on a command line.
  const target = path.resolve(file);
  const current = await readTextOrNull(target);
  const section = sectionOf(ctx.options.board);
  const next = withSection(current, section, sectionBlock(section, contextMarkdown(context)), file);
  const written = await writeIfChanged(target, next, current);
  if (ctx.json) return ctx.output.out(JSON.stringify({ file: target, written }, null, 2));
  ctx.output.out(written ? `wrote the board context to ${file}` : `${file}: the board context is up to date`);
}
