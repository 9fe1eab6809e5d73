import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { repoRoot, startCodeServer } from './helpers/codeServer';
import { twoBoardRepo } from './helpers/editorUi';
import { useWorkbenchSession } from './helpers/session';
import { eventually } from '../helpers/waiting';

interface HostResults {
  passed: string[];
  failed: { title: string; message: string }[];
  finished: boolean;
}

/**
 * The mocha suite of test/host runs inside code-server's extension host, against the real vscode
 * API and the installed .vsix; a small runner extension (test/host/runner) starts it when the
 * editor has started and writes the results, which this test waits for and reports one by one.
 */
describe('the extension-host suite, inside a real VS Code (code-server)', function () {
  this.timeout(180_000);
  let resultsFile = '';

  const session = useWorkbenchSession(async (temp) => {
    const scratch = await temp.make('kanban-e2e-host-');
    const suite = path.join(scratch, 'suite.js');
    await build({
      entryPoints: [path.join(repoRoot, 'test/host/suite/extensionHost.test.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode'],
      outfile: suite,
      logLevel: 'silent',
    });
    resultsFile = path.join(scratch, 'results.json');
    const folder = await twoBoardRepo(temp, ['Write the docs'], 'Ada Lovelace');
    return startCodeServer(
      scratch,
      folder,
      {},
      {
        env: { KANBAN_HOST_TESTS: resultsFile, KANBAN_HOST_SUITE: suite, KANBAN_HOST_REPO: repoRoot },
        extensionFolders: [path.join(repoRoot, 'test/host/runner')],
      },
    );
  });

  it('when the suite runs in the extension host, then every test in it passes', async () => {
    assert.ok(session.page, 'the workbench is open, so the extension host runs');
    const page = session.page;
    // A language model tool that writes asks first; outside a chat the editor asks in a modal
    // dialog, which the person (here: this test) confirms. What it said is checked below.
    const confirmations: string[] = [];
    // eventually rethrows the last failed check, so a timeout still shows the results so far.
    const finished = eventually(
      async () => {
        const sofar = await fs.readFile(resultsFile, 'utf8').then(
          (text) => JSON.parse(text) as HostResults,
          () => null,
        );
        assert.ok(sofar?.finished, `the suite did not finish; results so far: ${JSON.stringify(sofar)}`);
        return sofar;
      },
      150_000,
      500,
    );
    const suiteOver = finished.then(
      () => false,
      () => false,
    );
    const answerDialogs = (async () => {
      const dialog = page.locator('.monaco-dialog-box');
      for (;;) {
        // Whichever comes first: the next dialog, or the end of the suite (the wait left behind
        // then ends with the page, quietly).
        const shown = dialog.waitFor({ state: 'visible', timeout: 0 }).then(
          () => true,
          () => false,
        );
        if (!(await Promise.race([shown, suiteOver]))) return;
        confirmations.push((await dialog.innerText()).replace(/\s+/g, ' '));
        await dialog.locator('.dialog-buttons a.monaco-button', { hasNotText: 'Cancel' }).first().click();
        await dialog.waitFor({ state: 'hidden' });
      }
    })();
    const results = await finished;
    await answerDialogs;
    for (const title of results.passed) console.log(`      ✔ (host) ${title}`);
    for (const text of confirmations) console.log(`      (host asked) ${text}`);
    assert.deepEqual(results.failed, []);
    assert.ok(results.passed.length >= 5, `passed: ${results.passed.join(' | ')}`);
    assert.ok(
      confirmations.some((text) => text.includes('Create card "Made by a language model tool"')),
      `confirmations: ${JSON.stringify(confirmations)}`,
    );
  });
});
