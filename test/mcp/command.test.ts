import assert from 'node:assert/strict';
import { startMcp, runMcpToExit, textOf } from './helpers';

describe('kanban mcp: options and failures', function () {
  this.timeout(30_000);

  it('when both --dir and --url are given, then it exits 2 with the usage on stderr and nothing on stdout', async () => {
    const run = await runMcpToExit(['--dir', '.', '--url', 'http://127.0.0.1:3000']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /either --dir or --url/);
    assert.match(run.stderr, /Usage: kanban mcp/);
    assert.equal(run.stdout, '');
  });

  it('when an option is unknown, then it exits 2 naming it', async () => {
    const run = await runMcpToExit(['--port', '3000']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /unknown option "--port"/);
  });

  it('when the server behind --url is down, then a tool answers isError saying it cannot reach it', async () => {
    const mcp = await startMcp(['--url', 'http://127.0.0.1:9']);
    try {
      const result = await mcp.callRaw('list_cards');
      assert.equal(result.isError, true);
      assert.match(textOf(result), /cannot reach the server at http:\/\/127\.0\.0\.1:9/);
    } finally {
      await mcp.close();
    }
  });
});
