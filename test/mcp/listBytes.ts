import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { ApiClient } from '../../server/client/apiClient';
import { buildMcpServer, type McpServerOptions } from '../../server/mcp/mcpServer';

/** `tools/list` needs no board: a client that is never called. */
const NO_BOARD: ApiClient = {
  mode: 'http',
  target: 'nowhere',
  call: () => Promise.reject(new Error('tools/list calls no API')),
  close: () => Promise.resolve(),
} as unknown as ApiClient;

/**
 * What `tools/list` costs an agent under these options: the bytes of the result's `tools` array as
 * compact JSON, as a 2025-11-25 client receives it, and the tools' names. In-process, no board.
 */
export async function toolsListBytes(
  options: Pick<McpServerOptions, 'toolsets' | 'tools' | 'readOnly'> = {},
): Promise<{ bytes: number; names: string[] }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = buildMcpServer({ client: NO_BOARD, log: () => undefined, ...options });
  await server.connect(serverSide);
  const client = new Client({ name: 'list-bytes', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    const { tools } = await client.listTools();
    return { bytes: Buffer.byteLength(JSON.stringify(tools)), names: tools.map((t) => t.name) };
  } finally {
    await client.close();
    await server.close();
  }
}
