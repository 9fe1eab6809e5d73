import { askDaemon } from '../client/daemonApiClient';
import type { Command } from './command';
import { usage } from './commandHelpers';
import { findLiveDaemon, readDaemonRecord, removeDaemonRecord, type DaemonRecord } from './daemonRecord';
import { startDaemon } from './daemonStart';
import { processAlive } from '../live/serverRecord';
import { CliError } from './usage';

/** How long `daemon start` and `daemon stop` wait for the process (a 100,000-card first load is ~10 s). */
const WAIT_MS = 120_000;

async function waitFor<T>(look: () => Promise<T | null>, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const found = await look();
    if (found !== null) return found;
    if (Date.now() > deadline)
      throw new CliError(
        `gave up waiting ${WAIT_MS / 1000} s for the board process to ${what}; see .kanban/.state/daemon.log`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function describe(record: DaemonRecord): string {
  return `board process ${record.pid} (kanban ${record.version}) serving ${record.cards.toLocaleString('en-US')} card(s) since ${record.started}`;
}

export const daemonCommand: Command = {
  name: 'daemon',
  summary: 'Show, start or stop the board process that keeps a large board in memory between commands',
  args: '[status|start|stop]',
  subcommands: ['status', 'start', 'stop'],
  details: [
    'status  whether one serves this folder (the default)',
    'start   start one now and wait until it is ready',
    'stop    stop it (commands then open the folder themselves)',
    '',
    'Commands on a board of 5,000 or more cards start it by themselves and then call it, so each',
    'answers in the time of a small request instead of reading the whole board. It follows hand',
    'edits, git and other processes like the server does, and ends after 15 idle minutes. Env:',
    'KANBAN_DAEMON=auto|always|never, KANBAN_DAEMON_IDLE=<seconds>.',
  ],
  positionals: [0, 1],
  writes: false,
  offline: true,
  async run(ctx, parsed) {
    const action = parsed.positionals[0] ?? 'status';
    const dir = ctx.dir;
    if (action === 'status') {
      const record = await findLiveDaemon(dir);
      const status = record && (await askDaemon(dir, record, (client) => client.status()));
      const { key: _key, ...shown } = record ?? {};
      if (ctx.json) ctx.output.out(JSON.stringify(record ? { ...shown, ...status } : null, null, 2));
      else
        ctx.output.out(
          record
            ? `${describe(record)}${status ? `; ${status.calls} call(s) answered` : ''}`
            : `no board process serves ${dir}`,
        );
    } else if (action === 'start') {
      if (!(await findLiveDaemon(dir))) await startDaemon(dir, ctx.env);
      const record = await waitFor(() => findLiveDaemon(dir), 'be ready');
      ctx.output.out(describe(record));
    } else if (action === 'stop') {
      const record = await findLiveDaemon(dir);
      if (!record) {
        ctx.output.out(`no board process serves ${dir}`);
        return;
      }
      const stopped = (await askDaemon(dir, record, (client) => client.stop())) !== null;
      if (!stopped) {
        // Nothing answers for it: the record outlived its process (whose pid may be another's now).
        await removeDaemonRecord(dir, record.pid);
        ctx.output.out(
          `no board process serves ${dir} (removed the record of process ${record.pid}, which no longer answers)`,
        );
        return;
      }
      await waitFor(
        async () => (processAlive(record.pid) || (await readDaemonRecord(dir))?.pid === record.pid ? null : true),
        'stop',
      );
      ctx.output.out(`stopped board process ${record.pid}`);
    } else usage(daemonCommand, `unknown daemon action "${action}"; use status, start or stop`);
  },
};
