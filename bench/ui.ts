import { chromium, type Browser, type Page } from 'playwright-core';
import type { LiveOutcome } from './live';
import type { ScenarioResult } from './scenarios';
import { measureUiMemory } from './uiMemory';
import { SEARCH_WORD } from './dataset';

/**
 * The board UI at scale, in Debian's Chromium (issue 5): (a) time to the first full render of the
 * board, from navigation start to every card of the expanded columns in the DOM, over several cold
 * page loads; (b) the time from a drop to the card settled in its new column, both drawn there and
 * confirmed by the server (the move request answered), over a series of real pointer drags; (c) the
 * time from a keystroke in the search box to the board showing that query's cards.
 */

const CHROMIUM = '/usr/bin/chromium';
const RENDER_RUNS = 7;
const DRAGS = 20;
const VIEWPORT = { width: 1600, height: 1000 };
const SETTLE_TIMEOUT_MS = 10_000;
const SEARCH_ROUNDS = 6;
/** Typed queries: a word in about one card in twenty, and a rare one (a card number: a few cards). */
const SEARCH_QUERIES = [
  { kind: 'word', text: SEARCH_WORD },
  { kind: 'rare', text: '1208' },
] as const;

class UiUnavailable extends Error {}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

function result(scenario: string, samples: number[], sample: string): ScenarioResult {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    scenario,
    requestsPerSecond: 0,
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    requests: samples.length,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    serialP50Ms: 0,
    cpuMsPerRequest: 0,
    sample,
  };
}

/** Cards per expanded column of the default board (none is minimized in a fresh workspace). */
async function expectedCards(
  baseUrl: string,
): Promise<{ cards: number; columns: string[]; perColumn: Record<string, number> }> {
  const board = (await (await fetch(`${baseUrl}/api/boards/default`)).json()) as {
    data: { columns: { id: string }[]; minimizedColumnIds: string[] };
  };
  const tasks = (await (await fetch(`${baseUrl}/api/tasks?fields=id,status`)).json()) as { data: { status: string }[] };
  const columns = board.data.columns.map((c) => c.id).filter((id) => !board.data.minimizedColumnIds.includes(id));
  const perColumn = Object.fromEntries(columns.map((id) => [id, tasks.data.filter((t) => t.status === id).length]));
  return { cards: tasks.data.filter((t) => columns.includes(t.status)).length, columns, perColumn };
}

/**
 * True (as performance.now()) once every column shows its cards: all of them, or, in a long column
 * that draws only what is in view, enough to fill its visible box. Runs in the page; no named inner
 * functions, since tsx would wrap them in a helper the page lacks.
 */
const boardShown = (perColumn: Record<string, number>): number | false => {
  for (const [id, count] of Object.entries(perColumn)) {
    const list = document.querySelector(`[data-column-cards="${CSS.escape(id)}"]`);
    if (!list) return false;
    const drawn = list.querySelectorAll('[data-card-id]');
    if (drawn.length === count) continue;
    const last = drawn[drawn.length - 1];
    if (!last || last.getBoundingClientRect().bottom < list.getBoundingClientRect().bottom) return false;
  }
  return performance.now();
};

/** One cold load in a fresh context: ms from navigation start until every column shows its cards. */
async function firstRender(browser: Browser, baseUrl: string, perColumn: Record<string, number>): Promise<number> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(baseUrl, { waitUntil: 'commit' });
    // performance.now() counts from the navigation start; polled once per frame.
    const handle = await page.waitForFunction(boardShown, perColumn, {
      polling: 'raf',
      timeout: 60_000,
    });
    return (await handle.jsonValue()) as number;
  } finally {
    await context.close();
  }
}

interface DropTiming {
  /** Pointer release to the first frame with the card in its new column. */
  drawnMs: number;
  /** Pointer release to the move request answered (Resource Timing responseEnd). */
  answeredMs: number;
  /** The later of the two: drawn there and confirmed by the server. */
  settledMs: number;
}

/**
 * Drag the first card of `from` above the first card of `to` with real pointer moves, and time,
 * inside the page, from the pointer release to the card drawn in `to` and the move answered.
 */
async function timedDrag(page: Page, from: string, to: string): Promise<DropTiming> {
  const source = page.locator(`[data-drop-column="${from}"] [data-card-id]`).first();
  const target = page.locator(`[data-drop-column="${to}"] [data-card-id]`).first();
  const taskId = await source.getAttribute('data-card-id');
  const a = await source.boundingBox();
  const b = await target.boundingBox();
  if (!taskId || !a || !b) throw new UiUnavailable(`column ${from} or ${to} has no card on screen to drag`);
  await page.evaluate(
    ({ id, column }) => {
      const probe = window as unknown as { dropTiming?: DropTiming };
      delete probe.dropTiming;
      // Capture phase: runs before the board's own pointerup handler places the card.
      window.addEventListener(
        'pointerup',
        () => {
          const droppedAt = performance.now();
          const seen = performance.getEntriesByType('resource').length;
          let drawnAt = 0;
          const check = () => {
            const drawn = document
              .querySelector(`[data-card-id="${CSS.escape(id)}"]`)
              ?.closest('[data-drop-column]') as HTMLElement | null;
            if (!drawnAt && drawn?.dataset.dropColumn === column) drawnAt = performance.now();
            const moved = performance
              .getEntriesByType('resource')
              .slice(seen)
              .find((e) => e.name.includes(`/tasks/${encodeURIComponent(id)}/move`)) as
              PerformanceResourceTiming | undefined;
            if (drawnAt && moved) {
              const drawnMs = drawnAt - droppedAt;
              const answeredMs = moved.responseEnd - droppedAt;
              probe.dropTiming = { drawnMs, answeredMs, settledMs: Math.max(drawnMs, answeredMs) };
            } else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        },
        { once: true, capture: true },
      );
    },
    { id: taskId, column: to },
  );
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 12, a.y + a.height / 2 + 12, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + 6, { steps: 8 });
  await page.waitForSelector(`[data-drop-column="${to}"] .drop-gap`, { timeout: SETTLE_TIMEOUT_MS });
  await page.mouse.up();
  const handle = await page.waitForFunction(
    () => (window as unknown as { dropTiming?: DropTiming }).dropTiming,
    undefined,
    { timeout: SETTLE_TIMEOUT_MS },
  );
  return (await handle.jsonValue()) as DropTiming;
}

/** The ids of each expanded column that `q` matches, as the board's own search request answers them. */
async function matchingIds(baseUrl: string, q: string, columns: string[]): Promise<Record<string, string[]>> {
  const found = (await (
    await fetch(`${baseUrl}/api/boards/default/tasks?q=${encodeURIComponent(q)}&fields=id,status`)
  ).json()) as { data: { id: string; status: string }[] };
  return Object.fromEntries(columns.map((id) => [id, found.data.filter((t) => t.status === id).map((t) => t.id)]));
}

interface SearchTarget {
  /** Per column, the matching ids, or null when the search is cleared (every card shown). */
  wanted: Record<string, string[]> | null;
  perColumn: Record<string, number>;
}

/**
 * True (as performance.now()) once the board shows a search's answer: the search box no longer
 * busy, every column's count reads `matching/all` (or `all` when cleared), and the drawn cards are
 * matching ones, all of them or enough to fill a long column's box.
 */
const searchShown = ({ wanted, perColumn }: SearchTarget): number | false => {
  if (document.querySelector('[role="search"][aria-busy="true"]')) return false;
  for (const [id, total] of Object.entries(perColumn)) {
    const list = document.querySelector(`[data-column-cards="${CSS.escape(id)}"]`);
    const count = document.querySelector(`[data-column-head="${CSS.escape(id)}"] .column-count`);
    const ids = wanted ? wanted[id] : null;
    if (!list || count?.textContent !== (ids ? `${ids.length}/${total}` : String(total))) return false;
    const drawn = list.querySelectorAll('[data-card-id]');
    if (ids && [...drawn].some((card) => !ids.includes(card.getAttribute('data-card-id') ?? ''))) return false;
    const expected = ids ? ids.length : total;
    if (drawn.length === expected) continue;
    const last = drawn[drawn.length - 1];
    if (drawn.length > expected || !last || last.getBoundingClientRect().bottom < list.getBoundingClientRect().bottom)
      return false;
  }
  return performance.now();
};

/**
 * Type `keys` into the focused search box as one quick burst (no pause between keys); ms from the
 * last keydown to the first frame showing `target`.
 */
async function timedTyping(page: Page, keys: string[], target: SearchTarget): Promise<number> {
  await page.evaluate(() => {
    const probe = window as unknown as { keyAt?: number; keyProbe?: boolean };
    delete probe.keyAt;
    if (!probe.keyProbe) window.addEventListener('keydown', () => (probe.keyAt = performance.now()), { capture: true });
    probe.keyProbe = true;
  });
  for (const key of keys) await page.keyboard.press(key);
  const handle = await page.waitForFunction(searchShown, target, { polling: 'raf', timeout: SETTLE_TIMEOUT_MS });
  const shownAt = (await handle.jsonValue()) as number;
  return shownAt - (await page.evaluate(() => (window as unknown as { keyAt: number }).keyAt));
}

interface SearchTiming {
  kind: string;
  ms: number;
}

/**
 * Per round and query, from the whole board: type the query in one burst and time from its last
 * key to the board narrowed to its matches; then select the text and time the Backspace that
 * clears it, to the whole board again. A debounce counts: the user waits through it.
 */
async function timedSearches(
  page: Page,
  baseUrl: string,
  columns: string[],
  perColumn: Record<string, number>,
): Promise<SearchTiming[]> {
  await page.locator('#search-input').click();
  const cleared: SearchTarget = { wanted: null, perColumn };
  const targets = new Map<string, SearchTarget>();
  for (const { text } of SEARCH_QUERIES)
    targets.set(text, { wanted: await matchingIds(baseUrl, text, columns), perColumn });
  const timings: SearchTiming[] = [];
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    for (const { kind, text } of SEARCH_QUERIES) {
      timings.push({ kind, ms: await timedTyping(page, [...text], targets.get(text)!) });
      await page.keyboard.press('Control+A');
      timings.push({ kind: 'clear', ms: await timedTyping(page, ['Backspace'], cleared) });
    }
  }
  return timings;
}

async function measure(baseUrl: string): Promise<LiveOutcome> {
  const { cards, columns, perColumn } = await expectedCards(baseUrl);
  if (columns.length < 2) throw new UiUnavailable('the board needs two columns to drag between');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const renders: number[] = [];
    for (let i = 0; i < RENDER_RUNS; i++) renders.push(await firstRender(browser, baseUrl, perColumn));

    const page = await browser.newPage({ viewport: VIEWPORT });
    // tsx compiles the in-page functions with esbuild's keepNames, which calls a __name helper
    // that exists only in Node: give the page a no-op one.
    await page.addInitScript('globalThis.__name = (fn) => fn;');
    await page.goto(baseUrl);
    await page.waitForFunction(boardShown, perColumn, { timeout: 60_000 });
    await page.waitForSelector('[data-testid="connection"]:has-text("Live")');
    // Before the drags, while each column holds the cards the seed put there.
    const searches = await timedSearches(page, baseUrl, columns, perColumn);
    const drops: DropTiming[] = [];
    for (let i = 0; i < DRAGS; i++) {
      // Back and forth between the first two columns, so both keep cards and the board stays the same size.
      const [from, to] = i % 2 === 0 ? [columns[0], columns[1]] : [columns[1], columns[0]];
      drops.push(await timedDrag(page, from, to));
    }
    const memory = await measureUiMemory(browser, page);
    const renderResult = result(
      'ui-first-render',
      renders,
      `${cards} cards in ${columns.length} columns, ${RENDER_RUNS} cold loads`,
    );
    const dropResult = result(
      'ui-drop-settle',
      drops.map((d) => d.settledMs),
      `${DRAGS} pointer drags between ${columns[0]} and ${columns[1]}`,
    );
    const searchResult = result(
      'ui-search',
      searches.map((s) => s.ms),
      `typed from the whole board: ${SEARCH_QUERIES.map((q) => `"${q.text}"`).join(', ')}, clear; ${SEARCH_ROUNDS} rounds`,
    );
    const fmt = (n: number) => n.toFixed(0);
    const p50Of = (values: number[]) =>
      quantile(
        [...values].sort((x, y) => x - y),
        0.5,
      ).toFixed(1);
    return {
      results: [renderResult, dropResult, searchResult],
      notes: [
        `ui: first full render of ${cards} cards p50 ${fmt(renderResult.p50Ms)} ms (runs: ${renders.map(fmt).join(', ')} ms)`,
        `ui: drop to settled (drawn in the new column and the move answered) p50 ${dropResult.p50Ms.toFixed(1)} ms, p99 ${dropResult.p99Ms.toFixed(1)} ms over ${DRAGS} drags (drawn p50 ${p50Of(drops.map((d) => d.drawnMs))} ms, answered p50 ${p50Of(drops.map((d) => d.answeredMs))} ms)`,
        `ui: search, last keystroke to the board shown p50 ${searchResult.p50Ms.toFixed(1)} ms, p99 ${searchResult.p99Ms.toFixed(1)} ms over ${searches.length} keystrokes (${[...SEARCH_QUERIES.map((q) => q.kind), 'clear'].map((kind) => `${kind} p50 ${p50Of(searches.filter((s) => s.kind === kind).map((s) => s.ms))} ms`).join(', ')})`,
        `ui: Chromium memory after the drags: board renderer RSS ${fmt(memory.rendererMb)} MB, all Chromium processes RSS ${fmt(memory.allProcessesMb)} MB, page JS heap in use ${fmt(memory.jsHeapMb)} MB`,
      ],
    };
  } finally {
    await browser.close();
  }
}

export async function runUiScenario(baseUrl: string): Promise<LiveOutcome> {
  try {
    return await measure(baseUrl);
  } catch (error) {
    if (!(error instanceof UiUnavailable) && !/Executable doesn't exist|ENOENT/.test(String(error))) throw error;
    const message =
      error instanceof UiUnavailable ? error.message : `Chromium is needed at ${CHROMIUM} (apt-get install chromium)`;
    const failed: ScenarioResult = { ...result('ui', [], ''), failure: message };
    return { results: [failed], notes: [], failure: message };
  }
}
