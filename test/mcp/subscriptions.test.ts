import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client, InMemoryTransport, type TextResourceContents } from '@modelcontextprotocol/client';
import { HttpApiClient } from '../../server/client/apiClient';
import { buildMcpServer } from '../../server/mcp/mcpServer';
import { followResourceChanges } from '../../server/mcp/subscriptions';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { eventually, waitUntil } from '../helpers/waiting';
import { startMcp, type McpRevision, type McpSession } from './helpers';

/** How long a test waits for a notification before it fails; the promise is within 1 s, the margin is for a busy machine. */
const NOTIFICATION_WAIT_MS = 5000;

interface Update {
  uri: string;
  at: number;
}

/** Every `notifications/resources/updated` a client receives, with the time it arrived. */
function recordUpdates(client: Client): Update[] {
  const updates: Update[] = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    updates.push({ uri: notification.params.uri, at: Date.now() });
  });
  return updates;
}

/** The first update of `uri` after the `from`-th one; fails after NOTIFICATION_WAIT_MS saying what did arrive. */
async function nextUpdate(updates: Update[], uri: string, from: number): Promise<Update> {
  const found = () => updates.slice(from).find((u) => u.uri === uri);
  await waitUntil(
    () => found() !== undefined,
    NOTIFICATION_WAIT_MS,
    `an update of ${uri} (got ${
      updates
        .slice(from)
        .map((u) => u.uri)
        .join(', ') || 'none'
    })`,
  );
  return found()!;
}

/**
 * Make a change, wait for the update of `uri`, and read the resource again: it must show the change.
 * The delay is said in the message (the promise is within 1 s), not asserted: a busy machine is slow.
 */
async function assertNotified(
  client: Client,
  updates: Update[],
  uri: string,
  change: () => Promise<unknown> | void,
  shows: RegExp,
): Promise<void> {
  const from = updates.length;
  const changedAt = Date.now();
  await change();
  const update = await nextUpdate(updates, uri, from);
  const text = (await client.readResource({ uri })).contents.map((c) => (c as TextResourceContents).text).join('\n');
  assert.match(text, shows, `read again after its update, which came ${update.at - changedAt} ms after the change`);
}

/** Following one resource in the revision's own way: resources/subscribe (2025-11-25) or subscriptions/listen (2026-07-28). */
async function follow(mcp: McpSession, revision: McpRevision, uri: string): Promise<() => Promise<unknown>> {
  if (revision === '2025-11-25') {
    await mcp.client.subscribeResource({ uri });
    return () => mcp.client.unsubscribeResource({ uri });
  }
  const subscription = await mcp.client.listen({ resourceSubscriptions: [uri] });
  assert.deepEqual(subscription.honoredFilter.resourceSubscriptions, [uri]);
  return () => subscription.close();
}

for (const revision of ['2025-11-25', '2026-07-28'] as const) {
  describe(`MCP resource subscriptions (${revision}, --dir on a folder a server also serves)`, function () {
    this.timeout(60_000);
    let server: TestServer;
    let mcp: McpSession;
    let updates: Update[];
    /** A card made through the server, once the MCP process (another process on the folder) knows it too. */
    async function createCard(title: string): Promise<{ id: string; filePath: string }> {
      const card = (await server.api('POST', '/api/tasks', { content: `# ${title}\n`, status: 'todo' })).body?.data as {
        id: string;
        filePath: string;
      };
      await eventually(() => mcp.client.readResource({ uri: `kanban://cards/${card.id}` }), NOTIFICATION_WAIT_MS, 20);
      return card;
    }

    before(async () => {
      server = await startTestServer();
      mcp = await startMcp(['--dir', server.root], {}, { revision });
      updates = recordUpdates(mcp.client);
    });
    after(async () => {
      await mcp?.close();
      await server?.close();
    });

    it('when the server is asked, then it offers resource subscriptions', () => {
      assert.equal(mcp.client.getServerCapabilities()?.resources?.subscribe, true);
    });

    it('when a followed card is changed through REST by another process, then the client hears of that card', async () => {
      const card = await createCard('Changed over REST');
      const uri = `kanban://cards/${card.id}`;
      const unfollow = await follow(mcp, revision, uri);
      await assertNotified(
        mcp.client,
        updates,
        uri,
        () => server.api('PUT', `/api/tasks/${card.id}`, { priority: 'high' }),
        /^priority: high$/m,
      );
      await unfollow();
    });

    it('when a followed card file is edited by hand, then the client hears of that card', async () => {
      const card = await createCard('Edited by hand');
      const uri = `kanban://cards/${card.id}`;
      const unfollow = await follow(mcp, revision, uri);
      const file = path.join(server.root, card.filePath);
      await assertNotified(
        mcp.client,
        updates,
        uri,
        () => writeFileSync(file, readFileSync(file, 'utf8').replace('# Edited by hand', '# Edited by hand, again')),
        /"title":"Edited by hand, again"/,
      );
      await unfollow();
    });

    it("when a card is no longer followed, then its changes are not announced while a followed card's still are", async () => {
      const left = await createCard('Left alone');
      const kept = await createCard('Still followed');
      const leftUri = `kanban://cards/${left.id}`;
      const keptUri = `kanban://cards/${kept.id}`;
      const unfollowLeft = await follow(mcp, revision, leftUri);
      const unfollowKept = await follow(mcp, revision, keptUri);
      await unfollowLeft();
      const from = updates.length;
      // The kept card changes after the left one: once its update is in, the left one's would be too.
      await server.api('PUT', `/api/tasks/${left.id}`, { priority: 'low' });
      await server.api('PUT', `/api/tasks/${kept.id}`, { priority: 'low' });
      await nextUpdate(updates, keptUri, from);
      assert.deepEqual(
        updates.slice(from).filter((u) => u.uri === leftUri),
        [],
      );
      await unfollowKept();
    });

    it('when a card of a followed board moves, then the client hears of the board', async () => {
      const card = await createCard('Moving on');
      const uri = 'kanban://boards/default';
      const unfollow = await follow(mcp, revision, uri);
      await assertNotified(
        mcp.client,
        updates,
        uri,
        () => server.api('PATCH', `/api/tasks/${card.id}/move`, { status: 'review', position: 0 }),
        new RegExp(`\\(\`review\`\\): 1\\n- \`${card.id}\` Moving on`),
      );
      await unfollow();
    });

    it('when a followed board is renamed in its config by another process, then the client hears of the board', async () => {
      const uri = 'kanban://boards/default';
      const unfollow = await follow(mcp, revision, uri);
      const name = `Renamed on ${revision}`;
      await assertNotified(
        mcp.client,
        updates,
        uri,
        () => server.api('PUT', '/api/boards/default', { name }),
        new RegExp(`^# ${name} \\(default\\)`),
      );
      await unfollow();
    });

    it('when a card is read in-process, then its Markdown is the file as it is on disk', async () => {
      const card = await createCard('Read from disk');
      const { contents } = await mcp.client.readResource({ uri: `kanban://cards/${card.id}` });
      assert.equal(
        (contents[0] as TextResourceContents).text,
        readFileSync(path.join(server.root, card.filePath), 'utf8'),
      );
    });
  });
}

describe('MCP resource subscriptions: a server reached over HTTP, and the end of a connection', function () {
  this.timeout(30_000);
  let server: TestServer;
  before(async () => (server = await startTestServer()));
  after(async () => server?.close());

  it('when a card followed over --url changes, then the client hears of it; when the client goes, its event stream is let go', async () => {
    const http = new HttpApiClient(server.url);
    let listening = 0;
    const counted = Object.assign(Object.create(http) as HttpApiClient, {
      async listenEvents(listener: Parameters<HttpApiClient['listenEvents']>[0]) {
        const stop = await http.listenEvents(listener);
        listening++;
        return () => {
          listening--;
          stop();
        };
      },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildMcpServer({ client: counted, log: () => undefined }).connect(serverSide);
    const client = new Client({ name: 'subscriptions-test', version: '1.0.0' });
    await client.connect(clientSide);
    const updates = recordUpdates(client);
    const card = (await server.api('POST', '/api/tasks', { content: '# Over HTTP\n' })).body?.data as { id: string };
    const uri = `kanban://cards/${card.id.slice(0, 10)}`;
    await client.subscribeResource({ uri });
    assert.equal(listening, 1, 'one event stream while a resource is followed');
    await assertNotified(
      client,
      updates,
      uri,
      () => server.api('PUT', `/api/tasks/${card.id}`, { assignee: 'ada' }),
      /"assignee":"ada"/,
    );
    await client.close();
    await waitUntil(() => listening === 0, 3000, 'the event stream let go after the connection closed');
    await http.close();
  });

  it('when a host follows every change, then a card moved to another board names the card and both boards', async () => {
    const http = new HttpApiClient(server.url);
    await server.api('POST', '/api/boards', { id: 'elsewhere', name: 'Elsewhere' });
    const card = (await server.api('POST', '/api/tasks', { content: '# Sent away\n' })).body?.data as { id: string };
    const heard: string[] = [];
    const stop = await followResourceChanges(
      http,
      (uri) => heard.push(uri),
      () => undefined,
    );
    await server.api('POST', `/api/boards/elsewhere/tasks/${card.id}/transfer`, {});
    const expected = [`kanban://cards/${card.id}`, 'kanban://boards/elsewhere', 'kanban://boards/default'];
    await waitUntil(
      () => expected.every((uri) => heard.includes(uri)),
      NOTIFICATION_WAIT_MS,
      `${expected.join(', ')} heard (got ${heard.join(', ')})`,
    );
    stop();
    await http.close();
  });

  it('when a client subscribes to a card that does not exist, then the error names it', async () => {
    const mcp = await startMcp(['--url', server.url]);
    try {
      await assert.rejects(mcp.client.subscribeResource({ uri: 'kanban://cards/no-such-card' }), /no-such-card/);
      await assert.rejects(
        mcp.client.subscribeResource({ uri: 'kanban://instructions' }),
        /only kanban:\/\/cards\/<card id> and kanban:\/\/boards\/<board id> change/,
      );
    } finally {
      await mcp.close();
    }
  });
});
