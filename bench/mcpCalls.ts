import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { newClient, startMcp, textOf, type McpSession } from '../test/mcp/helpers';
import { notRun, type PickOutcome } from './pick';
import type { ScenarioResult } from './scenarios';

/**
 * What an agent waits for on its two most frequent MCP calls (`--only mcp-calls`), one call at a
 * time as an agent makes them, over the seeded server:
 * - `list_cards` (the first page of 50 compact summaries) and `pick_card` (a new agent each call,
 *   so each pick claims a new card), through `kanban mcp --url` on stdio;
 * - the peer in the same run: the REST calls the tools make (`GET /api/tasks?limit=50`,
 *   `POST /api/tasks/pick`) sent straight to the server, so the difference is what MCP adds.
 */
const CALLS = 100;
const WARM_UP = 5;
const NOTICES = 30;
const NOTICE_WAIT_MS = 5000;

const quantile = (times: number[], q: number) =>
  [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * q))];
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timeEach(count: number, call: (i: number) => Promise<void>): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i++) await call(-1 - i);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call(i);
    times.push(performance.now() - started);
  }
  return times;
}

function result(scenario: string, times: number[], sample: string): ScenarioResult {
  const p50 = quantile(times, 0.5);
  return {
    scenario,
    requestsPerSecond: 1000 / p50,
    p50Ms: Number(p50.toFixed(2)),
    p99Ms: Number(quantile(times, 0.99).toFixed(2)),
    requests: times.length,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    serialP50Ms: Number(p50.toFixed(2)),
    cpuMsPerRequest: 0,
    sample,
  };
}

async function callTool(mcp: McpSession, name: string, args: Record<string, unknown>): Promise<string> {
  const answer = await mcp.callRaw(name, args);
  const text = textOf(answer);
  if (answer.isError) throw new Error(`${name} answered an error: ${text}`);
  return text;
}

async function rest(baseUrl: string, method: string, path: string, agent?: string): Promise<void> {
  const answer = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(agent ? { 'x-kanban-agent': agent } : {}) },
    body: method === 'POST' ? '{}' : undefined,
  });
  await answer.arrayBuffer();
  if (!answer.ok && answer.status !== 204) throw new Error(`${method} ${path} answered ${answer.status}`);
}

/**
 * From a REST write of a followed card to its `notifications/resources/updated` at the client, one
 * change at a time: the whole path (the service's event, the follower, JSON-RPC, the transport).
 */
async function timeNotices(
  client: Client,
  cardId: string,
  change: (round: number) => Promise<unknown>,
): Promise<number[]> {
  const uri = `kanban://cards/${cardId}`;
  let heard: (() => void) | null = null;
  client.setNotificationHandler('notifications/resources/updated', (notice) => {
    if (notice.params.uri === uri) heard?.();
  });
  return timeEach(NOTICES, async (i) => {
    const arrived = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no notice of ${uri} within ${NOTICE_WAIT_MS} ms`)),
        NOTICE_WAIT_MS,
      );
      heard = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    await change(i);
    await arrived;
  });
}

/** Notice latency on stdio (2025-11-25 resources/subscribe, kanban mcp --url over /ws) and at /mcp (2026-07-28 listen). */
async function noticeLines(session: McpSession, baseUrl: string, root: string, cards: number): Promise<string[]> {
  const cardId = ((await (await fetch(`${baseUrl}/api/tasks?limit=1&fields=id`)).json()) as { data: { id: string }[] })
    .data[0].id;
  const restWrite = (round: number) =>
    fetch(`${baseUrl}/api/tasks/${cardId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { round } }),
    });
  const file = path.join(
    root,
    ((await (await fetch(`${baseUrl}/api/tasks/${cardId}`)).json()) as { data: { filePath: string } }).data.filePath,
  );
  const handEdit = async (round: number) =>
    fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(/^# .*$/m, `# Edited by hand ${round}`));
  await session.client.subscribeResource({ uri: `kanban://cards/${cardId}` });
  const stdio = await timeNotices(session.client, cardId, restWrite);
  const http = newClient({ revision: '2026-07-28', name: 'bench' });
  await http.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)));
  try {
    const listening = await http.listen({ resourceSubscriptions: [`kanban://cards/${cardId}`] });
    const overHttp = await timeNotices(http, cardId, restWrite);
    const edited = await timeNotices(http, cardId, handEdit);
    await listening.close();
    const line = (how: string, times: number[]) =>
      `MCP resource notice at ${cards.toLocaleString('en')} cards, ${how}: p50 ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}, max ${ms(Math.max(...times))} (${times.length} changes)`;
    return [
      line('REST write to stdio kanban mcp --url (resources/subscribe)', stdio),
      line('REST write to HTTP /mcp (subscriptions/listen)', overHttp),
      line('hand edit of the card file to HTTP /mcp (subscriptions/listen)', edited),
    ];
  } finally {
    await http.close();
  }
}

export async function runMcpCallsScenario(baseUrl: string, root: string, cards: number): Promise<PickOutcome> {
  let mcp: McpSession | undefined;
  try {
    mcp = await startMcp(['--url', baseUrl]);
    const session = mcp;
    let firstPage = 0;
    const list = await timeEach(CALLS, async () => {
      firstPage = Buffer.byteLength(await callTool(session, 'list_cards', {}));
    });
    const listRest = await timeEach(CALLS, () => rest(baseUrl, 'GET', '/api/tasks?limit=50'));
    const pick = await timeEach(CALLS, async (i) => {
      await callTool(session, 'pick_card', { agent: `bench-mcp-${i}` });
    });
    const pickRest = await timeEach(CALLS, (i) => rest(baseUrl, 'POST', '/api/tasks/pick', `bench-rest-${i}`));
    const notices = await noticeLines(session, baseUrl, root, cards);
    const line = (name: string, times: number[], peer: number[], peerName: string) =>
      `MCP ${name} at ${cards.toLocaleString('en')} cards: p50 ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))} over ${times.length} calls (stdio, kanban mcp --url); ${peerName} straight to the server p50 ${ms(quantile(peer, 0.5))}`;
    return {
      results: [
        result('mcp-list_cards', list, `${firstPage} B first page`),
        result('mcp-pick_card', pick, 'a new agent each call'),
      ],
      notes: [
        line('list_cards', list, listRest, 'GET /api/tasks?limit=50'),
        line('pick_card', pick, pickRest, 'POST /api/tasks/pick'),
        ...notices,
      ],
    };
  } catch (error) {
    return notRun('mcp-calls', `${(error as Error).message}${mcp ? `\n${mcp.stderr()}` : ''}`);
  } finally {
    await mcp?.close();
  }
}
