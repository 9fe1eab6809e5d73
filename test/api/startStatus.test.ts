import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseConfig } from '../../server/config/parseConfig';
import { startTestServer, type TestServer } from '../helpers/testServer';

/**
 * A board's `startStatus` must name one of its columns, or `.kanban.json` refuses to load. The
 * changes that remove a column take the setting with it (as they do `defaultStatus`), so the
 * service never writes a file it could not read back.
 */
describe("API: a board's startStatus when its column goes", function () {
  this.timeout(30_000);
  let server: TestServer;

  beforeEach(async () => {
    server = await startTestServer({
      config: {
        version: 2,
        boards: [
          {
            id: 'default',
            name: 'Ops',
            columns: [{ id: 'queue' }, { id: 'doing' }, { id: 'review' }, { id: 'done' }],
            startStatus: 'review',
          },
        ],
      },
    });
  });
  afterEach(() => server.close());

  async function writtenBoard() {
    const text = await fs.readFile(path.join(server.root, '.kanban.json'), 'utf8');
    return parseConfig(text).boards[0];
  }

  it('when another column is deleted, then startStatus is kept', async () => {
    assert.equal((await server.api('DELETE', '/api/columns/doing')).status, 200);
    assert.equal((await writtenBoard()).startStatus, 'review');
  });

  it('when the column startStatus names is deleted, then startStatus is removed and the file still loads after a restart', async () => {
    assert.equal((await server.api('DELETE', '/api/columns/review')).status, 200);
    assert.equal((await writtenBoard()).startStatus, undefined);
    await server.restart();
    assert.equal((await server.api('GET', '/api/boards/default')).status, 200);
  });

  it("when the board's columns are replaced without that column, then startStatus is removed and the file still loads", async () => {
    const columns = [
      { id: 'queue', name: 'Queue' },
      { id: 'done', name: 'Done' },
    ];
    assert.equal((await server.api('PUT', '/api/boards/default', { columns })).status, 200);
    assert.equal((await writtenBoard()).startStatus, undefined);
  });
});
