import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { generateCards } from '../../bench/dataset';
import { seedMarkdownFiles } from '../../bench/seed';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { pageThroughListCards, type McpSession, useMcpSession } from './helpers';

const CARDS = 1_000;

describe('MCP list_cards at 1,000 cards', function () {
  this.timeout(120_000);
  let server: TestServer;
  let mcp: McpSession;

  useMcpSession(
    'url',
    (opened) => ({ server, mcp } = opened),
    async () => {
      const root = await makeTempDir();
      await seedMarkdownFiles(root, generateCards(CARDS));
      return startTestServer({ root });
    },
  );

  it('when an agent follows nextCursor from the first page, then it gets every card exactly once, 50 a page, in compact form', async () => {
    const full = await fetch(`${server.url}/api/tasks`);
    const fullText = await full.text();
    const restIds = (JSON.parse(fullText).data as { id: string }[]).map((c) => c.id);
    assert.equal(restIds.length, CARDS);

    const pages = await pageThroughListCards(mcp);
    assert.equal(pages.total, CARDS);
    assert.equal(new Set(pages.ids).size, pages.ids.length, 'no card appears twice');
    assert.deepEqual([...pages.ids].sort(), [...restIds].sort(), 'every card appears');
    assert.ok(
      pages.pageSizes.every((n) => n <= 50),
      `page sizes ${pages.pageSizes.join(', ')}`,
    );
    assert.equal(pages.pageSizes.length, CARDS / 50);

    const firstPage = pages.pageBytes[0];
    const allPages = pages.pageBytes.reduce((a, b) => a + b, 0);
    const restBytes = Buffer.byteLength(fullText);
    // The compact pages carry a fraction of the full list; the figures go to the report.
    assert.ok(allPages < restBytes / 3, `all pages ${allPages} B against the full list ${restBytes} B`);
    const figures = {
      cards: CARDS,
      restFullListBytes: restBytes,
      listCardsFirstPageBytes: firstPage,
      listCardsAllPagesBytes: allPages,
      pages: pages.pageBytes.length,
    };
    await fs.mkdir(path.join(__dirname, '..', '..', 'test-output'), { recursive: true });
    await fs.writeFile(
      path.join(__dirname, '..', '..', 'test-output', 'mcp-list-bytes.json'),
      `${JSON.stringify(figures, null, 2)}\n`,
    );
    console.log(
      `      list_cards: first page ${firstPage} B, all ${pages.pageBytes.length} pages ${allPages} B; REST full list ${restBytes} B`,
    );
  });
});
