import type { Answer, Context } from './context';

/**
 * Storage migration is one all-or-nothing request; the service reports no progress while it runs
 * (server/service/migration.ts answers once, at the end). On a terminal the command therefore
 * names each phase on stderr and keeps a timer running while the service works, so a long move
 * never looks stuck. Piped, stderr stays quiet and stdout carries only the result.
 */
export async function runMigration(ctx: Context, action: 'migrate-to-sqlite' | 'migrate-to-markdown', body: Record<string, unknown> | undefined): Promise<Answer> {
  const live = Boolean(process.stderr.isTTY);
  const say = (text: string) => live && process.stderr.write(`kanban: ${text}\n`);
  say('phase 1/3: reading the workspace');
  const workspace = await ctx.get<{ cardCount?: number; providers?: { card?: { provider?: string } } }>('/workspace').catch(() => null);
  const count = workspace?.data.cardCount;
  const from = workspace?.data.providers?.card?.provider ?? 'the current storage';
  const to = action === 'migrate-to-sqlite' ? 'SQLite' : 'Markdown files';
  say(`phase 2/3: copying ${count === undefined ? 'every card' : `${count} card(s)`} from ${from} to ${to} (all or nothing)`);
  const started = Date.now();
  const frames = ['|', '/', '-', '\\'];
  let frame = 0;
  const ticker = live
    ? setInterval(() => process.stderr.write(`\r  ${frames[frame++ % frames.length]} ${((Date.now() - started) / 1000).toFixed(1)} s`), 200)
    : null;
  let finished = false;
  try {
    const answer = await ctx.call('POST', `/storage/${action}`, body === undefined ? {} : { body });
    finished = true;
    return answer;
  } finally {
    if (ticker) {
      clearInterval(ticker);
      process.stderr.write('\r\u001b[2K');
    }
    say(`phase 3/3: ${finished ? 'done' : 'failed, nothing changed'} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
