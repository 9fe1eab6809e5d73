import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { folderWithCards, repoRoot } from './helpers/harness';

const run = promisify(execFile);

/**
 * dist/extension.js leaves Express, ws and the MCP SDK to parts beside it (esbuild.mjs,
 * EXTENSION_VENDOR_PARTS), so the editor does not parse them at activation. This runs the built
 * bundle, as the editor does, and checks which of dist/'s files each step loads, so a static import
 * that pulls a part back into activation fails here.
 */
describe('the built extension loads its parts at first use', function () {
  this.timeout(120_000);

  before(function () {
    // npm test builds dist/ before the tests; a lone run of this file needs `node esbuild.mjs` first.
    if (!existsSync(path.join(repoRoot, 'dist/extension-http.js')))
      throw new Error('dist/ is not built: node esbuild.mjs');
  });

  it('when it activates, then no part is loaded; a chat tool loads the MCP part, the API server the HTTP part', async () => {
    const folder = await folderWithCards(['Served from the bundle']);
    const { stdout } = await run(
      process.execPath,
      ['--require', 'tsx/cjs', path.join(__dirname, 'helpers/builtExtensionHost.ts'), folder],
      { cwd: repoRoot, timeout: 90_000 },
    );
    const report = JSON.parse(stdout) as {
      activated: string[];
      toolUsed: string[];
      serverStarted: string[];
      servedTitles: string[];
      docsStatus: number;
      toolAnswer: string;
    };
    assert.deepEqual(report.activated, ['extension.js']);
    assert.deepEqual(report.toolUsed, ['extension-mcp.js', 'extension-ws.js', 'extension.js']);
    assert.match(report.toolAnswer, /Served from the bundle/);
    // The server also serves MCP over HTTP and live events over WebSockets.
    assert.deepEqual(report.serverStarted, [
      'extension-http.js',
      'extension-mcp.js',
      'extension-ws.js',
      'extension.js',
    ]);
    assert.deepEqual(report.servedTitles, ['Served from the bundle']);
    assert.equal(report.docsStatus, 200, 'the API docs page (Swagger UI from dist/node_modules)');
  });
});
