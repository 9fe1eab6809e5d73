import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { makeTempDir } from '../helpers/testServer';
import { eventually } from '../helpers/waiting';
import { configWith, setUpCardProvider, type CardProviderName, type CardProviderSetup } from './helpers/cardProviders';
import { startServerProcess, type ServerProcess } from './helpers/child';

async function send(
  base: string,
  method: string,
  urlPath: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(base + urlPath, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { ok: boolean; data?: any; error?: string };
  return { status: response.status, etag: response.headers.get('etag'), data: json.data, error: json.error };
}

async function call(base: string, method: string, urlPath: string, body?: unknown): Promise<any> {
  const answer = await send(base, method, urlPath, body);
  if (answer.status >= 300) throw new Error(`${method} ${urlPath} answered ${answer.status}: ${answer.error}`);
  return answer.data;
}

/** The assignee column of the card's row, read from the database itself (not through a server). */
async function storedAssignee(provider: CardProviderSetup, root: string, id: string): Promise<string | null> {
  if (provider.database)
    return (await provider.database.query('SELECT assignee FROM kanban_cards WHERE id = ?', [id]))[0].assignee;
  const db = new Database(path.join(root, '.kanban', 'kanban.db'), { readonly: true });
  try {
    return (db.prepare('SELECT assignee FROM kanban_cards WHERE id = ?').get(id) as { assignee: string | null })
      .assignee;
  } finally {
    db.close();
  }
}

/**
 * Two real server processes over one database send the same conditional write at the same moment.
 * The version lives in the card's row, so the database picks one: the other is refused (412, or
 * 409), and what the row holds is the winner's change on both instances.
 */
for (const providerName of ['sqlite', 'mysql', 'postgres'] as CardProviderName[]) {
  describe(`card.storage ${providerName}: If-Match across two server processes`, function () {
    this.timeout(120_000);
    let provider: CardProviderSetup;
    let roots: string[];
    let servers: ServerProcess[] = [];

    before(async () => {
      provider = await setUpCardProvider(providerName, null);
      const first = await makeTempDir();
      roots = providerName === 'sqlite' ? [first, first] : [first, await makeTempDir()];
      for (const root of new Set(roots)) {
        await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(configWith(provider.plugins), null, 2));
      }
      servers = await Promise.all(roots.map((root) => startServerProcess(root)));
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      for (const root of new Set(roots ?? [])) await fs.rm(root, { recursive: true, force: true });
      await provider?.cleanup();
    });

    it('when both update one card with the same If-Match at once, then each round exactly one wins and the row holds its change', async () => {
      const [a, b] = servers;
      const card = await call(a.url, 'POST', '/api/tasks', { content: '# Contended\n' });
      await eventually(() => call(b.url, 'GET', `/api/tasks/${card.id}`), 10_000);
      for (let round = 0; round < 12; round++) {
        const { etag } = await send(a.url, 'GET', `/api/tasks/${card.id}`);
        assert.ok(etag);
        // Both instances know the card at this version before they race (no poll needed to pass).
        await eventually(
          async () => assert.equal((await send(b.url, 'GET', `/api/tasks/${card.id}`)).etag, etag),
          10_000,
        );
        const answers = await Promise.all(
          servers.map((server, s) =>
            send(
              server.url,
              'PUT',
              `/api/tasks/${card.id}`,
              { assignee: `${'ab'[s]}-${round}` },
              { 'If-Match': etag as string },
            ),
          ),
        );
        const statuses = answers.map((x) => x.status);
        const winners = statuses.filter((status) => status === 200).length;
        assert.equal(
          winners,
          1,
          `round ${round}: exactly one write wins; statuses ${statuses.join(', ')} (${answers.map((x) => x.error).join(' | ')})`,
        );
        const loser = answers.find((x) => x.status !== 200)!;
        assert.ok(
          [409, 412].includes(loser.status),
          `round ${round}: the other is refused, got ${loser.status}: ${loser.error}`,
        );
        const winner = `${'ab'[statuses.indexOf(200)]}-${round}`;
        assert.equal(
          await storedAssignee(provider, roots[0], card.id),
          winner,
          `round ${round}: the row holds the winner's change`,
        );
        for (const server of servers) {
          await eventually(
            async () => assert.equal((await call(server.url, 'GET', `/api/tasks/${card.id}`)).assignee, winner),
            10_000,
          );
        }
      }
    });

    it('when both update one card at once without If-Match, then both changes are kept', async () => {
      const [a, b] = servers;
      const card = await call(a.url, 'POST', '/api/tasks', { content: '# Both\n' });
      await eventually(() => call(b.url, 'GET', `/api/tasks/${card.id}`), 10_000);
      for (let round = 0; round < 5; round++) {
        await Promise.all([
          call(a.url, 'PUT', `/api/tasks/${card.id}`, { labels: [`a-${round}`] }),
          call(b.url, 'PUT', `/api/tasks/${card.id}`, { assignee: `b-${round}` }),
        ]);
        for (const server of servers) {
          await eventually(async () => {
            const read = await call(server.url, 'GET', `/api/tasks/${card.id}`);
            assert.deepEqual([read.labels, read.assignee], [[`a-${round}`], `b-${round}`]);
          }, 10_000);
        }
      }
    });
  });
}
