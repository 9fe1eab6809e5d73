// Runs the extension-host mocha suite inside a real VS Code (code-server here; the same suite runs
// under @vscode/test-electron elsewhere) and writes the results where the e2e test waits for them.
// Inert unless KANBAN_HOST_TESTS names the results file, so it never runs by accident.
const fs = require('fs');
const path = require('path');

function writeResults(file, results) {
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(results, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

function activate() {
  const out = process.env.KANBAN_HOST_TESTS;
  const suite = process.env.KANBAN_HOST_SUITE;
  const repo = process.env.KANBAN_HOST_REPO;
  if (!out || !suite || !repo) return;
  const results = { passed: [], failed: [], finished: false };
  try {
    // The CommonJS build by path: the package's entry is an ES module, and the host loads CommonJS.
    const Mocha = require(path.join(repo, 'node_modules', 'mocha', 'lib', 'mocha.cjs'));
    // allowUncaught: an error thrown by another extension in the same host (telemetry that cannot
    // reach its server, say) must not be pinned on whichever test runs at that moment.
    const mocha = new Mocha({ ui: 'bdd', timeout: 60000, color: false, allowUncaught: true });
    mocha.addFile(suite);
    const runner = mocha.run(() => {
      results.finished = true;
      writeResults(out, results);
    });
    runner.on('pass', (test) => results.passed.push(test.fullTitle()));
    runner.on('fail', (test, error) =>
      results.failed.push({ title: test.fullTitle(), message: String((error && error.stack) || error) }),
    );
  } catch (error) {
    results.failed.push({ title: 'starting the suite', message: String((error && error.stack) || error) });
    results.finished = true;
    writeResults(out, results);
  }
}

module.exports = { activate, deactivate() {} };
