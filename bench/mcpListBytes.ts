import { pageThroughListCards, startMcp } from '../test/mcp/helpers';
import { toolsListBytes } from '../test/mcp/listBytes';
import { TOOLSETS } from '../server/mcp/toolsets';

/** The budget of the default toolset's `tools/list` (test/mcp/toolsets.test.ts asserts it too). */
export const CARDS_LIST_BUDGET = 12_000;

/**
 * What `tools/list` costs an agent per toolset: compact JSON bytes of the tools as a 2025-11-25
 * client receives them, with the tool count; `cards` is the default. In-process: no server.
 */
export async function mcpToolsetBytes(): Promise<{ lines: string[]; overBudget: boolean }> {
  const lines: string[] = [];
  let overBudget = false;
  for (const set of [...TOOLSETS, 'all']) {
    const { bytes, names } = await toolsListBytes({ toolsets: [set] });
    const budget =
      set === 'cards'
        ? ` (budget ${CARDS_LIST_BUDGET.toLocaleString('en')}${bytes > CARDS_LIST_BUDGET ? ', OVER' : ''})`
        : '';
    if (set === 'cards' && bytes > CARDS_LIST_BUDGET) overBudget = true;
    lines.push(
      `MCP tools/list --toolsets ${set}: ${bytes.toLocaleString('en')} B, ${names.length} tools${set === 'cards' ? ', the default' : ''}${budget}`,
    );
  }
  return { lines, overBudget };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * What an agent pays to read the board through MCP: the bytes of `list_cards` (compact summaries,
 * paged) against the full REST list, both over the same running server.
 */
export async function mcpListBytesNote(baseUrl: string): Promise<string> {
  const restBytes = Buffer.byteLength(await (await fetch(`${baseUrl}/api/tasks`)).text());
  const mcp = await startMcp(['--url', baseUrl]);
  try {
    const pages = await pageThroughListCards(mcp);
    const first = pages.pageBytes[0];
    const all = pages.pageBytes.reduce((sum, bytes) => sum + bytes, 0);
    const share = (bytes: number) => `${((100 * bytes) / restBytes).toFixed(1)}%`;
    return `MCP list_cards: first page ${kb(first)} (${pages.pageSizes[0]} cards, ${share(first)} of the full REST list), all ${pages.pageBytes.length} page(s) ${kb(all)} (${share(all)}); full REST list ${kb(restBytes)}`;
  } finally {
    await mcp.close();
  }
}
