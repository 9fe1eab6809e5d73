import { strict as assert } from 'node:assert';
import { okData } from '../helpers/envelope';
import { EXPECTED, RANGE, writeKnownHistory } from '../helpers/flowHistory';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { startMcp } from '../mcp/helpers';
import { expectCode, jsonOf, kanban } from './helpers';

/** `kanban metrics` and the MCP tool get_metrics answer the numbers GET /metrics answers. */
describe('CLI and MCP: flow metrics', function () {
  this.timeout(60_000);
  let server: TestServer;
  let rest: any;
  const range = ['--from', RANGE.from, '--to', RANGE.to];

  before(async () => {
    const root = await makeTempDir();
    await writeKnownHistory(root);
    server = await startTestServer({ root });
    rest = okData(await server.api('GET', `/api/metrics?from=${RANGE.from}&to=${RANGE.to}`));
    assert.deepEqual(rest.cycleTime, EXPECTED.cycleTime);
  });
  after(() => server.close());

  it('when kanban metrics --json runs through the server or on the folder, then it prints the REST answer', async () => {
    assert.deepEqual(jsonOf(await kanban(['metrics', ...range, '--json', '--url', server.url])), rest);
    assert.deepEqual(
      jsonOf(await kanban(['metrics', ...range, '--json', '--board', 'default', '--dir', server.root])),
      rest,
    );
  });

  it('when kanban metrics prints text, then durations read as days and hours', async () => {
    const text = expectCode(await kanban(['metrics', ...range, '--url', server.url]), 0).stdout;
    assert.match(text, /Cycle time \(in-progress to done\), 3 cards: p50 2d 6h, p85 7d 0h, p95 7d 0h/);
    assert.match(text, /Lead time \(created to done\), 4 cards: p50 3d 6h, p85 10d 0h, p95 10d 0h/);
    assert.match(text, /2026-W10 \(2026-03-02\) {2}3\n/);
    assert.match(text, /No recorded start, so no cycle time: delta-2026-02-28/);
    assert.match(text, /in-progress: 1 {2}echo-2026-03-02 6d 23h/);
  });

  it('when an agent calls get_metrics, then its structured content is the REST answer', async () => {
    const mcp = await startMcp(['--url', server.url, '--toolsets', 'boards']);
    try {
      const result = await mcp.callRaw('get_metrics', { from: RANGE.from, to: RANGE.to });
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.structuredContent, rest);
      assert.match((result.content[0] as { text: string }).text, /p50 2d 6h/);
    } finally {
      await mcp.close();
    }
  });
});
