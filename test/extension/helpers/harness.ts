import './installVscodeDouble';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { activate, deactivate } from '../../../extension/extension';
import type { ExtensionParts } from '../../../extension/parts';
import { KanbanService } from '../../../extension/service/kanbanService';
import { initWorkspace } from '../../../server/service/initWorkspace';
import { double, fakeExtensionContext, type FakeWebviewPanel } from './vscodeDouble';

export const repoRoot = path.resolve(__dirname, '../../..');

export async function tempFolder(prefix = 'kanban-ext-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

/**
 * A folder with a board (as `kanban init` starts it) and cards made through the real service (so
 * they are files exactly as it writes them).
 */
export async function folderWithCards(titles: string[], options: { status?: string } = {}): Promise<string> {
  return folderWithCardBodies(
    titles.map((title) => ({ content: `# ${title}\n`, ...(options.status ? { status: options.status } : {}) })),
  );
}

/** A folder with a board and a card for each body, created as POST /tasks would. */
export async function folderWithCardBodies(bodies: Record<string, unknown>[]): Promise<string> {
  const root = await tempFolder();
  await initWorkspace(root);
  const service = await KanbanService.open(root);
  for (const body of bodies) {
    const answer = await service.dispatcher.dispatch({ method: 'POST', path: '/tasks', body });
    if (answer.status !== 201)
      throw new Error(`could not seed ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`);
  }
  await service.close();
  return root;
}

/** Activate the extension in a window with these folders open and these settings (trusted unless said). */
export function activateWith(
  folders: string[],
  settings: Record<string, unknown> = {},
  options: { trusted?: boolean; extensions?: Record<string, unknown> } = {},
): ExtensionParts {
  double.reset();
  double.trusted = options.trusted ?? true;
  for (const [id, exports] of Object.entries(options.extensions ?? {})) double.extensions.set(id, exports);
  double.setFolders(folders);
  for (const [key, value] of Object.entries(settings)) double.settings.set(key, value);
  return activate(fakeExtensionContext(repoRoot) as never);
}

export { deactivate, double };

export async function runCommand(id: string, ...args: unknown[]): Promise<void> {
  const run = double.commands.get(id);
  if (!run) throw new Error(`command ${id} is not registered`);
  await run(...args);
}

export async function waitFor<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Open Board, then the page's `ready` handshake: answers the panel once the host said hello. */
export async function openReadyBoard(): Promise<FakeWebviewPanel> {
  await runCommand('kanban.openBoard');
  const panel = double.panels.at(-1)!;
  panel.webview.send({ type: 'ready' });
  await waitFor(() => panel.webview.posted.find((m) => m.type === 'hello'), 'hello');
  return panel;
}
