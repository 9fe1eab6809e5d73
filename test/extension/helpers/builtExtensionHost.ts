/**
 * Runs the built dist/extension.js (not the source) against the VS Code double, in a process of its
 * own, and prints which files of dist/ each step had loaded: activation, a language model tool's
 * first call, the API server's start. Usage: node --require tsx/cjs builtExtensionHost.ts <folder>
 */
import './installVscodeDouble';
import * as path from 'node:path';
import { double, fakeExtensionContext, lm } from './vscodeDouble';

const repoRoot = path.resolve(__dirname, '../../..');
const dist = path.join(repoRoot, 'dist');

const loadedFromDist = () =>
  Object.keys(require.cache)
    .filter((file) => path.dirname(file) === dist)
    .map((file) => path.basename(file))
    .sort();

async function main(folder: string): Promise<void> {
  double.reset();
  double.trusted = true;
  double.setFolders([folder]);
  double.settings.set('kanban.server.port', 0);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const extension = require(path.join(dist, 'extension.js')) as {
    activate(context: unknown): void;
    deactivate(): Promise<void>;
  };
  extension.activate(fakeExtensionContext(repoRoot));
  const activated = loadedFromDist();

  const listed = await lm.invokeTool('kanban_list_cards', { input: {} });
  const toolUsed = loadedFromDist();

  await double.commands.get('kanban.startApiServer')!();
  const url = /(http:\/\/\S+)\/api/.exec(double.statusItem('kanban.apiServer')!.tooltip as string)![1];
  const served = (await (await fetch(`${url}/api/tasks`)).json()) as { data: { title: string }[] };
  const docs = await fetch(`${url}/api/docs/`);
  const serverStarted = loadedFromDist();
  await extension.deactivate();

  process.stdout.write(
    `${JSON.stringify({
      activated,
      toolUsed,
      serverStarted,
      servedTitles: served.data.map((card) => card.title),
      docsStatus: docs.status,
      toolAnswer: listed.content.map((part) => (part as { value: string }).value).join(''),
    })}\n`,
  );
}

main(process.argv[2]).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
