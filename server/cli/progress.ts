import type { Progress } from '../core/progress';
import type { Answer, Context } from './context';

type Migration = 'migrate-to-sqlite' | 'migrate-to-markdown' | 'migrate-to-postgres' | 'migrate-to-mysql';

const TARGETS: Record<Migration, string> = {
  'migrate-to-sqlite': 'SQLite',
  'migrate-to-markdown': 'Markdown files',
  'migrate-to-postgres': 'PostgreSQL',
  'migrate-to-mysql': 'MySQL',
};

const BAR_WIDTH = 24;
/** Redraw at most this often: a terminal repaint per card would cost more than the copy. */
const REDRAW_MS = 80;

/** One line of progress: the step, a bar, the percentage, the counts and the time so far. */
export function progressLine(progress: Progress, elapsedMs: number): string {
  const fraction = progress.total > 0 ? Math.min(1, progress.done / progress.total) : 0;
  const filled = Math.round(fraction * BAR_WIDTH);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}`;
  const counts =
    progress.total > 1 ? ` ${progress.done.toLocaleString('en-US')}/${progress.total.toLocaleString('en-US')}` : '';
  return `  ${progress.phase} [${bar}] ${String(Math.floor(fraction * 100)).padStart(3)}%${counts}  ${(elapsedMs / 1000).toFixed(1)} s`;
}

/**
 * Whether progress is drawn on stderr: on a terminal, unless KANBAN_PROGRESS=never; piped output
 * stays clean for scripts, and KANBAN_PROGRESS=always draws it anyway (logs, tests).
 */
function progressWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.KANBAN_PROGRESS === 'never') return false;
  return env.KANBAN_PROGRESS === 'always' || Boolean(process.stderr.isTTY);
}

/**
 * Storage migration is one all-or-nothing request. In-process (the default) the service reports
 * each card it copies, drawn as a bar; through --url the server cannot report back during the
 * request, so a timer runs instead, so that a long move never looks stuck either way.
 */
export function runMigration(
  ctx: Context,
  action: Migration,
  body: Record<string, unknown> | undefined,
): Promise<Answer> {
  return withProgress(ctx, `moving every card to ${TARGETS[action]} (all or nothing)`, 'failed, nothing changed', () =>
    ctx.call('POST', `/storage/${action}`, body === undefined ? {} : { body }),
  );
}

/**
 * Run one long request with progress on stderr: a bar per step in-process, a timer through --url.
 * `intro` says what starts; `failed` what a failure means for the user's data.
 */
export async function withProgress<T>(ctx: Context, intro: string, failed: string, work: () => Promise<T>): Promise<T> {
  const live = progressWanted(ctx.env);
  const say = (text: string) => live && process.stderr.write(`kanban: ${text}\n`);
  say(intro);
  const started = Date.now();
  await ctx.checkMode(true);
  const client = await ctx.api();
  const stop = live
    ? client.listenProgress
      ? drawBar(client.listenProgress.bind(client), started)
      : drawTimer(started)
    : () => undefined;
  let finished = false;
  try {
    const answer = await work();
    finished = true;
    return answer;
  } finally {
    stop();
    say(`${finished ? 'done' : failed} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

function drawBar(
  listen: NonNullable<Awaited<ReturnType<Context['api']>>['listenProgress']>,
  started: number,
): () => void {
  let drawnAt = 0;
  let last: Progress | null = null;
  const draw = (progress: Progress) =>
    process.stderr.write(`\r\u001b[2K${progressLine(progress, Date.now() - started)}`);
  const unlisten = listen((progress) => {
    const stepChanged = last?.phase !== progress.phase;
    if (stepChanged && last) {
      // The last step is finished: show it full once, then keep it on its own line.
      if (last.done < last.total) draw({ ...last, done: last.total });
      process.stderr.write('\n');
    }
    last = progress;
    const now = Date.now();
    if (stepChanged || progress.done >= progress.total || now - drawnAt >= REDRAW_MS) {
      drawnAt = now;
      draw(progress);
    }
  });
  return () => {
    unlisten();
    if (last) process.stderr.write('\n');
  };
}

function drawTimer(started: number): () => void {
  const frames = ['|', '/', '-', '\\'];
  let frame = 0;
  const ticker = setInterval(
    () =>
      process.stderr.write(`\r  ${frames[frame++ % frames.length]} ${((Date.now() - started) / 1000).toFixed(1)} s`),
    200,
  );
  return () => {
    clearInterval(ticker);
    process.stderr.write('\r\u001b[2K');
  };
}
