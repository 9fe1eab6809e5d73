import type { Browser, Page } from 'playwright-core';
import { writeKnownHistory } from '../helpers/flowHistory';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { ensureUiBuilt, launchChromium } from './uiHelpers';

/** What a metrics suite works with; the fields are filled in by the hooks below. */
export interface MetricsBoard {
  server: TestServer;
  browser: Browser;
  /** A fresh page per test, 1440×1000. */
  page: Page;
  /** The page's script errors and console errors (CSP violations among them), per test. */
  errors: string[];
}

/**
 * Mocha hooks for a suite over a board with a known flow history: one server and one Chromium for
 * the suite, a new page per test that records what goes wrong in it.
 */
export function useMetricsBoard(): MetricsBoard {
  const board = { errors: [] as string[] } as MetricsBoard;
  before(async () => {
    ensureUiBuilt();
    const root = await makeTempDir();
    await writeKnownHistory(root);
    board.server = await startTestServer({ root });
    board.browser = await launchChromium();
  });
  beforeEach(async () => {
    const errors: string[] = [];
    board.errors = errors;
    board.page = await board.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    board.page.on('pageerror', (error) => errors.push(error.message));
    board.page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
  });
  afterEach(() => board.page.close());
  after(async () => {
    await board.browser?.close();
    await board.server?.close();
  });
  return board;
}
