import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../helpers/testServer';
import { configWith, setUpCardProvider, type CardProviderName, type CardProviderSetup } from './helpers/cardProviders';
import { eventually } from '../helpers/waiting';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { startServerProcess, type ServerProcess, call } from './helpers/child';

async function writeConfig(root: string, plugins: Record<string, unknown>): Promise<void> {
  await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(configWith(plugins), null, 2));
}

/**
 * Two real server processes over one database: SQLite (one workspace, one file), MySQL and PostgreSQL (two
 * workspaces, one database). Both write at the same time; nothing may be lost, ids never clash,
 * and each sees the other's changes in its reads and on its WebSocket, at the default poll interval.
 */
for (const providerName of ['sqlite', 'mysql', 'postgres'] as CardProviderName[]) {
  describe(`card.storage ${providerName}: two server processes over one database`, function () {
    this.timeout(90_000);
    let provider: CardProviderSetup;
    let roots: string[];
    let a: ServerProcess;
    let b: ServerProcess;

    before(async () => {
      provider = await setUpCardProvider(providerName, null);
      const first = await makeTempDir();
      // SQLite: both serve one workspace (one file). MySQL: two workspaces share the database.
      roots = providerName === 'sqlite' ? [first, first] : [first, await makeTempDir()];
      for (const root of new Set(roots)) await writeConfig(root, provider.plugins);
      [a, b] = await Promise.all(roots.map((root) => startServerProcess(root)));
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      for (const root of new Set(roots ?? [])) await fs.rm(root, { recursive: true, force: true });
      await provider?.cleanup();
    });

    it('when both create cards with the same titles at once, then every card is kept with its own id and both see all', async () => {
      const burst = (server: ServerProcess, who: string) =>
        Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            call(server.url, 'POST', '/api/tasks', { content: `# Race ${i % 3}\n\nfrom ${who}` }),
          ),
        );
      const [fromA, fromB] = await Promise.all([burst(a, 'a'), burst(b, 'b')]);
      const ids = [...fromA, ...fromB].map((t) => t.id);
      assert.equal(new Set(ids).size, 40, 'no id was handed out twice');
      for (const server of [a, b]) {
        await eventually(async () => {
          const listed = (await call(server.url, 'GET', '/api/tasks')).map((t: any) => t.id);
          assert.deepEqual(listed.filter((id: string) => ids.includes(id)).sort(), [...ids].sort());
        }, 10_000);
      }
    });

    it('when both comment on one card at once, then every comment is kept in both', async () => {
      const card = await call(a.url, 'POST', '/api/tasks', { content: '# Busy thread\n' });
      await eventually(() => call(b.url, 'GET', `/api/tasks/${card.id}`), 10_000);
      const comment = (server: ServerProcess, who: string, i: number) =>
        call(server.url, 'POST', `/api/tasks/${card.id}/comments`, { author: who, content: `${who} ${i}` });
      await Promise.all(Array.from({ length: 10 }, (_, i) => [comment(a, 'a', i), comment(b, 'b', i)]).flat());
      const expected = ['a', 'b'].flatMap((who) => Array.from({ length: 10 }, (_, i) => `${who} ${i}`)).sort();
      for (const server of [a, b]) {
        await eventually(async () => {
          const comments = await call(server.url, 'GET', `/api/tasks/${card.id}/comments`);
          assert.deepEqual(comments.map((c: any) => c.content).sort(), expected, `${server.url} lacks comments`);
        }, 10_000);
      }
      // Both servers agree on one order: the order the database stored them in.
      await eventually(async () => {
        const [fromA, fromB] = await Promise.all(
          [a, b].map((s) => call(s.url, 'GET', `/api/tasks/${card.id}/comments`)),
        );
        assert.deepEqual(
          fromA.map((c: any) => c.id),
          fromB.map((c: any) => c.id),
        );
      }, 10_000);
    });

    it('when one changes and moves a card, then the other shows it in reads and on its WebSocket within a few seconds', async () => {
      const card = await call(a.url, 'POST', '/api/tasks', { content: '# Watched\n' });
      await eventually(() => call(b.url, 'GET', `/api/tasks/${card.id}`), 10_000);
      const socket = await RecordingSocket.connect(wsUrl(b.url));
      try {
        await call(a.url, 'PUT', `/api/tasks/${card.id}`, { priority: 'high', assignee: 'Ana' });
        await call(a.url, 'PATCH', `/api/tasks/${card.id}/move`, { status: 'review' });
        // "Within a few seconds": the other server polls its database once a second by default.
        await eventually(async () => {
          const read = await call(b.url, 'GET', `/api/tasks/${card.id}`);
          assert.deepEqual([read.priority, read.assignee, read.status], ['high', 'Ana', 'review']);
          const event = socket.events().find((e) => e.data?.taskId === card.id && e.event === 'task.moved');
          assert.ok(
            event,
            `no task.moved on the other server's socket; got ${JSON.stringify(socket.events().map((e) => e.event))}`,
          );
          assert.equal(event.card?.status ?? event.data.to, 'review');
        }, 5000);
      } finally {
        socket.close();
      }
    });

    it('when both change different fields of one card at once, then the card keeps both changes in both', async () => {
      const cards = await Promise.all(
        Array.from({ length: 5 }, (_, i) => call(a.url, 'POST', '/api/tasks', { content: `# Shared ${i}\n` })),
      );
      for (const card of cards) await eventually(() => call(b.url, 'GET', `/api/tasks/${card.id}`), 10_000);
      await Promise.all(
        cards.flatMap((card, i) => [
          call(a.url, 'PUT', `/api/tasks/${card.id}`, { priority: 'critical', labels: [`from-a-${i}`] }),
          call(b.url, 'PUT', `/api/tasks/${card.id}`, { assignee: `B${i}`, dueDate: '2027-01-0' + (i + 1) }),
        ]),
      );
      for (const server of [a, b]) {
        await eventually(async () => {
          for (const [i, card] of cards.entries()) {
            const read = await call(server.url, 'GET', `/api/tasks/${card.id}`);
            assert.deepEqual(
              [read.priority, read.labels, read.assignee, read.dueDate],
              ['critical', [`from-a-${i}`], `B${i}`, `2027-01-0${i + 1}`],
            );
          }
        }, 10_000);
      }
    });

    it('when one deletes a card for good, then it disappears from the other', async () => {
      const card = await call(b.url, 'POST', '/api/tasks', { content: '# Short lived\n' });
      await eventually(() => call(a.url, 'GET', `/api/tasks/${card.id}`), 10_000);
      await call(a.url, 'DELETE', `/api/tasks/${card.id}/permanent`);
      await eventually(async () => {
        const response = await fetch(`${b.url}/api/tasks/${card.id}`);
        assert.equal(response.status, 404);
      }, 10_000);
    });
  });
}
