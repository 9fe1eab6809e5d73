import { strict as assert } from 'node:assert';
import type { TestServer } from '../helpers/testServer';
import { createTask, listIds, okData } from '../helpers/envelope';
import { CARD_PROVIDERS } from './helpers/cardProviders';
import { useCardProviderServer } from '../helpers/perProvider';

/** Archive on every card.storage provider: SQL stores keep it in `archived_at`, Markdown in archived/. */
for (const providerName of CARD_PROVIDERS) {
  describe(`card.storage ${providerName}: archive and restore`, function () {
    this.timeout(30_000);
    let server: TestServer;
    useCardProviderServer(providerName, (started) => (server = started));

    it('when cards are archived one by one and a column all at once, then after a restart they are still archived with their status, and a restore brings one back', async () => {
      const single = await createTask(server, { content: '# Single\n', status: 'todo' });
      const doneA = await createTask(server, { content: '# Done A\n', status: 'done' });
      const doneB = await createTask(server, { content: '# Done B\n', status: 'done' });
      const stays = await createTask(server, { content: '# Stays\n', status: 'todo' });
      okData(await server.api('POST', `/api/tasks/${single.id}/archive`));
      assert.equal(okData<any[]>(await server.api('POST', '/api/columns/done/archive')).length, 2);
      const opsCard = await createTask(server, { content: '# Ops card\n', status: 'doing' }, 'ops');
      okData(await server.api('POST', `/api/boards/ops/tasks/${opsCard.id}/archive`));
      await server.restart();
      assert.deepEqual(await listIds(server), [stays.id]);
      const archived = okData<any[]>(await server.api('GET', '/api/tasks?archived=only'));
      assert.deepEqual(
        archived.map((t) => [t.id, t.status, Boolean(t.archivedAt)]).sort(),
        [
          [doneA.id, 'done', true],
          [doneB.id, 'done', true],
          [single.id, 'todo', true],
        ].sort(),
      );
      assert.deepEqual(await listIds(server, '?archived=only', 'ops'), [opsCard.id]);
      okData(await server.api('POST', `/api/tasks/${single.id}/restore`));
      await server.restart();
      assert.deepEqual(await listIds(server, '?status=todo'), [stays.id, single.id]);
      assert.equal(okData(await server.api('GET', `/api/tasks/${single.id}`)).archivedAt, null);
    });
  });
}
