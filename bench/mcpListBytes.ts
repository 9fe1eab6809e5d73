import { pageThroughListCards, startMcp } from '../test/mcp/helpers';

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
