import { strict as assert } from 'node:assert';
import { STANDARD_COLUMNS } from '../../server/core/defaults';
import { Dispatcher } from '../../server/api/dispatch';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';
import { seedCardFiles } from '../helpers/seedCards';

/**
 * Keyset paging over 2,000 cards while other clients create, move and delete cards between the
 * pages: every card that stayed in place is read exactly once, in order, and the headers say how
 * many match and where the next page is.
 */
const SEEDED = 2000;
const COLUMNS = STANDARD_COLUMNS.map((c) => c.id);

interface Page {
  url: string;
  ids: string[];
  data: any[];
  total: number;
  link: string | null;
}

async function fetchPage(server: TestServer, url: string): Promise<Page> {
  const response = await fetch(server.url + url);
  const body = (await response.json()) as { ok: boolean; data: any[]; error?: string };
  assert.equal(response.status, 200, `${url}: ${body.error}`);
  return {
    url,
    ids: body.data.map((t) => t.id),
    data: body.data,
    total: Number(response.headers.get('x-total-count')),
    link: response.headers.get('link'),
  };
}

function nextUrl(link: string): string {
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  assert.ok(match, `Link header "${link}" is not <url>; rel="next"`);
  return match[1];
}

/** What other clients did to the board while the pages were read. */
class Churn {
  /** Cards moved or deleted: the paging promise does not cover them. */
  readonly touched = new Set<string>();
  private created = 0;
  private seed = 7;

  /** A fixed sequence, so a failure repeats. */
  private random(): number {
    this.seed = (this.seed * 1103515245 + 12345) % 2147483648;
    return this.seed / 2147483648;
  }

  constructor(
    private server: TestServer,
    private untouched: string[],
  ) {}

  private pick(): string {
    for (;;) {
      const id = this.untouched[Math.floor(this.random() * this.untouched.length)];
      if (!this.touched.has(id)) {
        this.touched.add(id);
        return id;
      }
    }
  }

  /** Three creates (one then moved to the top of a column), two moves, a soft and a permanent delete, all at once. */
  async round(): Promise<void> {
    const column = () => COLUMNS[Math.floor(this.random() * COLUMNS.length)];
    const n = this.created;
    this.created += 3;
    const moved = [this.pick(), this.pick()];
    const [softDeleted, gone] = [this.pick(), this.pick()];
    const answers = await Promise.all([
      this.server.api('POST', '/api/tasks', { title: `Churn ${n}`, status: column() }),
      this.server.api('POST', '/api/tasks', { title: `Churn ${n + 1}`, status: column() }).then(async (created) => {
        if (created.status !== 201) return created;
        return this.server.api('PATCH', `/api/tasks/${created.body?.data.id}/move`, { status: column(), position: 0 });
      }),
      this.server.api('POST', '/api/boards/default/tasks', { content: `# Churn ${n + 2}\n`, status: column() }),
      ...moved.map((id) =>
        this.server.api('PATCH', `/api/tasks/${id}/move`, {
          status: column(),
          position: Math.floor(this.random() * 50),
        }),
      ),
      this.server.api('DELETE', `/api/tasks/${softDeleted}`),
      this.server.api('DELETE', `/api/tasks/${gone}/permanent`),
    ]);
    for (const answer of answers) assert.ok(answer.status < 300, JSON.stringify(answer.body));
  }
}

/** Reads every page from `firstUrl` on, following Link headers, running `between` after each page but the last. */
async function readAllPages(server: TestServer, firstUrl: string, between: () => Promise<void>): Promise<Page[]> {
  const pages: Page[] = [];
  let url: string | null = firstUrl;
  while (url) {
    const page: Page = await fetchPage(server, url);
    pages.push(page);
    assert.ok(pages.length < 100, 'paging does not end');
    if (!page.link) break;
    url = nextUrl(page.link);
    await between();
  }
  return pages;
}

async function currentIds(server: TestServer, query = ''): Promise<string[]> {
  return okData<any[]>(await server.api('GET', `/api/tasks?fields=id${query}`)).map((t) => t.id);
}

/** Each untouched card of `before` is in the pages exactly once, in the order a fresh list shows them now. */
function assertEachUntouchedOnce(pages: Page[], before: string[], touched: Set<string>, orderNow: string[]): void {
  const seen = pages.flatMap((p) => p.ids);
  const counts = new Map<string, number>();
  for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
  const untouched = new Set(before.filter((id) => !touched.has(id)));
  const wrong = [...untouched].filter((id) => counts.get(id) !== 1).map((id) => `${id} x${counts.get(id) ?? 0}`);
  assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} untouched cards not read exactly once`);
  assert.deepEqual(
    seen.filter((id) => untouched.has(id)),
    orderNow.filter((id) => untouched.has(id)),
    'untouched cards came in another order than the list shows them',
  );
}

function assertHeaders(pages: Page[], route: string, params: string, limit: number, totals: number[]): void {
  pages.forEach((page, i) => {
    assert.equal(page.total, totals[i], `X-Total-Count of page ${i + 1}`);
    const last = i === pages.length - 1;
    if (last) {
      assert.equal(page.link, null, 'the last page has a Link header');
      assert.ok(page.ids.length <= limit);
    } else {
      assert.equal(page.ids.length, limit, `page ${i + 1} is short`);
      const next = nextUrl(page.link ?? '');
      assert.ok(
        next.startsWith(`${route}?${params}&cursor=`),
        `Link ${next} does not keep the route and query ${route}?${params}`,
      );
      assert.equal(new URL(next, 'http://x').searchParams.getAll('cursor').length, 1);
    }
  });
}

describe('API lists: keyset paging at 2,000 cards with creates, moves and deletes between pages', function () {
  this.timeout(120_000);
  let server: TestServer;

  before(async () => {
    const root = await makeTempDir();
    await seedCardFiles(root, SEEDED);
    server = await startTestServer({ root });
  });
  after(async () => server?.close());

  /**
   * Reads all pages with churn between them; answers what the test needs to check them. Without a
   * filter the expected total is counted here; with one (`filter`), read from the list once the
   * round of changes is done.
   */
  async function pageWithChurn(route: string, params: string, filter = '') {
    const before = await currentIds(server, filter);
    const churn = new Churn(server, await currentIds(server));
    const totals: number[] = [];
    let expected = before.length;
    const pages = await readAllPages(server, `${route}?${params}`, async () => {
      totals.push(expected);
      await churn.round();
      // Three created; one soft-deleted (it leaves the list) and one deleted for good.
      expected = filter ? (await currentIds(server, filter)).length : expected + 3 - 2;
    });
    totals.push(expected);
    return { before, churn, pages, totals };
  }

  it('when paging a filtered list by position while cards change, then every matching card that stayed comes exactly once, in board order', async () => {
    const params = 'priority=high&limit=40&fields=id,priority';
    const { before, churn, pages, totals } = await pageWithChurn('/api/tasks', params, '&priority=high');
    assert.ok(pages.length >= 10, `${pages.length} pages`);
    assertHeaders(pages, '/api/tasks', params, 40, totals);
    assertEachUntouchedOnce(pages, before, churn.touched, await currentIds(server, '&priority=high'));
    assert.ok(pages.every((page) => page.data.every((t) => t.priority === 'high')));
  });

  it('when paging by position while cards change between pages, then every card that stayed in place comes exactly once, in board order', async () => {
    const params = 'limit=150&fields=id,title,status,position';
    const { before, churn, pages, totals } = await pageWithChurn('/api/tasks', params);
    assert.ok(pages.length >= 13, `${pages.length} pages`);
    assertHeaders(pages, '/api/tasks', params, 150, totals);
    assertEachUntouchedOnce(pages, before, churn.touched, await currentIds(server));
    for (const page of pages) {
      assert.deepEqual(Object.keys(page.data[0]), ['id', 'title', 'status', 'position']);
      // Within one answer the board is one snapshot: columns in order, positions rising.
      for (let i = 1; i < page.data.length; i++) {
        const [a, b] = [page.data[i - 1], page.data[i]];
        const byColumn = COLUMNS.indexOf(a.status) - COLUMNS.indexOf(b.status);
        assert.ok(
          byColumn < 0 || (byColumn === 0 && a.position < b.position),
          `${a.id} (${a.status} ${a.position}) before ${b.id} (${b.status} ${b.position})`,
        );
      }
    }
  });

  for (const [sort, direction] of [
    ['created', 1],
    ['-created', -1],
  ] as const) {
    it(`when paging the board-scoped twin with sort=${sort} while cards change, then every card that stayed comes once and all are in ${sort} order`, async () => {
      const route = '/api/boards/default/tasks';
      const params = `sort=${sort}&limit=170`;
      const { before, churn, pages, totals } = await pageWithChurn(route, params);
      assertHeaders(pages, route, params, 170, totals);
      assertEachUntouchedOnce(pages, before, churn.touched, await currentIds(server, `&sort=${sort}`));
      // created never changes, so the order holds across pages too, moved and new cards included.
      const all = pages.flatMap((p) => p.data);
      for (let i = 1; i < all.length; i++) {
        const [a, b] = [all[i - 1], all[i]];
        const rising = a.created === b.created ? a.id < b.id : a.created < b.created;
        assert.equal(rising ? 1 : -1, direction, `${a.id} (${a.created}) then ${b.id} (${b.created})`);
      }
    });
  }

  it('when paging in-process through the Dispatcher, then page.nextCursor walks every card once and page.total counts them', async () => {
    const dispatcher = new Dispatcher(server.running.workspace);
    const expected = await currentIds(server, '&sort=-priority');
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await dispatcher.dispatch({
        method: 'GET',
        path: `/tasks?sort=-priority&limit=300&fields=id,priority${cursor ? `&cursor=${cursor}` : ''}`,
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.page?.total, expected.length);
      seen.push(...(answer.body as { data: { id: string }[] }).data.map((t) => t.id));
      cursor = answer.page?.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, Math.ceil(expected.length / 300));
    assert.deepEqual(seen, expected);
  });
});
