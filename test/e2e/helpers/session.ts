import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { KanbanService } from '../../../extension/service/kanbanService';
import { baseCardId, cardIdCandidates } from '../../../server/core/ids';
import type { Card } from '../../../server/core/model';
import { spreadKeys } from '../../../server/core/ordering';
import { serializeCard } from '../../../server/storage/cardFile';
import { TempDirs, type CodeServer } from './codeServer';
import { makeCard } from '../../helpers/cards';
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

/**
 * The same folder as seedWorkspace (one card per title in To Do, in that order), with the card
 * files written directly: 10,000 cards through the service's one-at-a-time writes take minutes.
 * The service then opens it once, as a board used before: its card index is written.
 */
export async function seedWorkspaceFiles(temp: TempDirs, titles: string[], prefix = 'kanban-e2e-ws-'): Promise<string> {
  const folder = await temp.make(prefix);
  await (await KanbanService.open(folder)).close();
  const column = path.join(folder, '.kanban', 'boards', 'default', 'todo');
  await fs.mkdir(column, { recursive: true });
  const now = new Date().toISOString();
  const keys = spreadKeys(titles.length);
  const cards: Card[] = titles.map((title, i) =>
    makeCard({
      id: cardIdCandidates(baseCardId(title, new Date(now))).next().value as string,
      status: 'todo',
      content: `# ${title}\n`,
      order: keys[i],
      created: now,
      modified: now,
    }),
  );
  for (let i = 0; i < cards.length; i += 200)
    await Promise.all(
      cards.slice(i, i + 200).map((card) => fs.writeFile(path.join(column, `${card.id}.md`), serializeCard(card))),
    );
  const service = await KanbanService.open(folder);
  const answer = await service.dispatcher.dispatch({ method: 'GET', path: '/tasks?fields=id&limit=1' });
  await service.close();
  if (answer.status !== 200) throw new Error(`the seeded folder does not open: ${JSON.stringify(answer.body)}`);
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
