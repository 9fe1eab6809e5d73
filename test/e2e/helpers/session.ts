import type { Browser, Page } from 'playwright-core';
import { KanbanService } from '../../../extension/service/kanbanService';
import { TempDirs, type CodeServer } from './codeServer';
import { closeWorkbench, openWorkbench, screenshot } from './workbench';

/** A folder with one card per title in To Do, written by the extension's own service. */
export async function seedWorkspace(temp: TempDirs, titles: string[], prefix = 'kanban-e2e-ws-'): Promise<string> {
  const folder = await temp.make(prefix);
  const service = await KanbanService.open(folder);
  for (const title of titles) {
    const answer = await service.dispatcher.dispatch({
      method: 'POST',
      path: '/tasks',
      body: { content: `# ${title}\n`, status: 'todo' },
    });
    if (answer.status !== 201) throw new Error(`seeding failed: ${JSON.stringify(answer.body)}`);
  }
  await service.close();
  return folder;
}

/** One code-server and its workbench page, shared by the tests of a suite. */
export interface WorkbenchSession {
  readonly temp: TempDirs;
  server: CodeServer;
  browser: Browser;
  page: Page;
}

/** Launches the code-server (over folders it makes in `temp`) and opens its workbench. */
async function openSession(session: WorkbenchSession, start: (temp: TempDirs) => Promise<CodeServer>): Promise<void> {
  session.server = await start(session.temp);
  Object.assign(session, await openWorkbench(session.server.url));
}

/** Closes what opened; the temporary folders are kept, with their logs, when anything failed. */
async function closeSession(session: WorkbenchSession): Promise<void> {
  if (session.page) await closeWorkbench(session.browser, session.page);
  await session.server?.stop();
  await session.temp.cleanUp();
}

/**
 * Mocha hooks for a suite on one code-server: `start` launches it (over folders it makes in
 * `temp`), the workbench opens before the first test and everything stops after the last.
 */
export function useWorkbenchSession(start: (temp: TempDirs) => Promise<CodeServer>): WorkbenchSession {
  const session = { temp: new TempDirs() } as WorkbenchSession;
  before(async () => {
    try {
      await openSession(session, start);
    } catch (error) {
      session.temp.failed = true;
      throw error;
    }
  });
  afterEach(function () {
    if (this.currentTest?.state !== 'passed') session.temp.failed = true;
  });
  after(() => closeSession(session));
  return session;
}

/** After each failed test of the suite, what the window showed: the quickest explanation of the step that failed. */
export function screenshotWhenFailed(session: WorkbenchSession, prefix = 'vscode-failed'): void {
  afterEach(async function () {
    const test = this.currentTest;
    if (test?.state !== 'failed') return;
    await screenshot(session.page, `${prefix}-${test.title.slice(5, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });
}

/** One test on a code-server of its own (a clean extension host, for measurements): `start` as above. */
export async function onOwnWorkbench(
  start: (temp: TempDirs) => Promise<CodeServer>,
  test: (session: WorkbenchSession) => Promise<void>,
): Promise<void> {
  const session = { temp: new TempDirs() } as WorkbenchSession;
  try {
    await openSession(session, start);
    await test(session);
  } catch (error) {
    session.temp.failed = true;
    throw error;
  } finally {
    await closeSession(session);
  }
}
