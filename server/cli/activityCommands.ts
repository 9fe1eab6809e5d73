import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { str, type Command } from './command';
import { bold, dim, plain, table } from './output';
import { CliError } from './usage';
import { ID, enc, show, type Card } from './commandHelpers';

/** A card's history and attachments: comment, comments, log and attach. */

function defaultAuthor(env: NodeJS.ProcessEnv): string {
  if (env.KANBAN_AUTHOR) return env.KANBAN_AUTHOR;
  try {
    return os.userInfo().username || 'cli';
  } catch {
    return 'cli';
  }
}

export const commentCommand: Command = {
  name: 'comment',
  summary: 'Add a comment to a card',
  args: `${ID} <text>`,
  options: {
    author: {
      type: 'string',
      value: '<name>',
      description: 'who says it (default: env KANBAN_AUTHOR, else your user name)',
    },
  },
  positionals: [2, 2],
  writes: true,
  async run(ctx, parsed) {
    const [id, content] = parsed.positionals;
    const answer = await ctx.call<Card>('POST', ctx.boardPath(`/tasks/${enc(id)}/comments`), {
      body: { author: str(parsed, 'author') ?? defaultAuthor(ctx.env), content },
    });
    await show(ctx, answer, () => `commented on ${bold(ctx.output, id)} (${plain(answer.data.id)})`);
  },
};

export const commentsCommand: Command = {
  name: 'comments',
  summary: 'List the comments of a card',
  args: ID,
  positionals: [1, 1],
  writes: false,
  async run(ctx, parsed) {
    const answer = await ctx.get<Card[]>(ctx.boardPath(`/tasks/${enc(parsed.positionals[0])}/comments`));
    await show(ctx, answer, () =>
      answer.data.length
        ? table(ctx.output, answer.data, [
            { header: 'ID', cell: (c) => plain(c.id) },
            { header: 'AUTHOR', cell: (c) => plain(c.author) },
            { header: 'CREATED', cell: (c) => plain(c.created) },
            { header: 'COMMENT', cell: (c) => plain(c.content).trim(), shrink: true },
          ])
        : dim(ctx.output, 'no comments'),
    );
  },
};

export const logCommand: Command = {
  name: 'log',
  summary: 'Append a log entry to a card; without text, show its log',
  args: `${ID} [text]`,
  options: {
    source: { type: 'string', value: '<name>', description: 'where the entry comes from (default "default")' },
  },
  positionals: [1, 2],
  writes: (parsed) => parsed.positionals.length > 1,
  async run(ctx, parsed) {
    const [id, text] = parsed.positionals;
    const logPath = ctx.boardPath(`/tasks/${enc(id)}/logs`);
    if (text === undefined) {
      const answer = await ctx.get<Card[]>(logPath);
      await show(ctx, answer, () =>
        answer.data.length
          ? table(ctx.output, answer.data, [
              { header: 'TIME', cell: (e) => plain(e.timestamp) },
              { header: 'SOURCE', cell: (e) => plain(e.source) },
              { header: 'TEXT', cell: (e) => plain(e.text).trim(), shrink: true },
            ])
          : dim(ctx.output, 'no log entries'),
      );
      return;
    }
    const source = str(parsed, 'source');
    const answer = await ctx.call<Card>('POST', logPath, { body: { text, ...(source ? { source } : {}) } });
    await show(ctx, answer, () => `logged on ${bold(ctx.output, id)} at ${plain(answer.data.timestamp)}`);
  },
};

export const attachCommand: Command = {
  name: 'attach',
  summary: 'Attach files to a card (all or none are stored)',
  args: `${ID} <file>...`,
  positionals: [2, 1000],
  writes: true,
  async run(ctx, parsed) {
    const [id, ...files] = parsed.positionals;
    const uploads = await Promise.all(
      files.map(async (file) => {
        const data = await fs.readFile(file).catch((error: NodeJS.ErrnoException) => {
          throw new CliError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
        });
        return { name: path.basename(file), data: data.toString('base64') };
      }),
    );
    const answer = await ctx.call<Card>('POST', ctx.boardPath(`/tasks/${enc(id)}/attachments`), {
      body: { files: uploads },
    });
    await show(ctx, answer, () => `attached ${uploads.map((u) => u.name).join(', ')} to ${bold(ctx.output, id)}`);
  },
};
