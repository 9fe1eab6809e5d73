import {
  activateWith,
  deactivate,
  double,
  folderWithCards,
  openReadyBoard,
  runCommand,
  waitFor,
} from './helpers/harness';
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Replace a file whole, as an editor's save does, so the watcher never reads it half-written. */
async function save(file: string, text: string): Promise<void> {
  await fs.writeFile(`${file}.saving`, text);
  await fs.rename(`${file}.saving`, file);
}

const problems = () => double.diagnostics.get('kanban')!.byPath;

describe('extension: broken card and config files are visible', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when a card file gets broken YAML, then Problems lists it at the line, a warning is shown once, the board hears of it and the log says it; fixing it clears them', async () => {
    const folder = await folderWithCards(['Fragile card']);
    activateWith([folder]);
    const panel = await openReadyBoard();
    const dir = path.join(folder, '.kanban/boards/default/backlog');
    const [name] = await fs.readdir(dir);
    const file = path.join(dir, name);
    const good = await fs.readFile(file, 'utf8');
    await save(file, good.replace(/^priority: .*$/m, 'priority: [unclosed'));

    const [diagnostic] = await waitFor(() => problems().get(file), 'a diagnostic on the card file', 8000);
    assert.match(diagnostic.message, /not valid YAML/);
    assert.equal(diagnostic.source, 'Kanban');
    const brokenLine = good.split('\n').findIndex((l) => l.startsWith('priority:'));
    assert.ok(
      diagnostic.range.startLine >= brokenLine && diagnostic.range.startLine <= brokenLine + 2,
      `diagnostic on line ${diagnostic.range.startLine + 1}`,
    );
    const notice = await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'invalidFiles' && m.files.length === 1),
      'the notice for the board',
    );
    assert.equal(notice.files[0].path, `.kanban/boards/default/backlog/${name}`);
    const warnings = double.messages.filter((m) => m.kind === 'warning' && m.text.includes(name));
    assert.equal(warnings.length, 1);
    assert.deepEqual(warnings[0].items, ['Open File', 'Show Problems']);
    const channel = double.outputs.find((o) => o.name === 'Kanban')!;
    assert.ok(
      channel.lines.some((l) => l.includes(name) && /no longer parses/.test(l)),
      channel.lines.join('\n'),
    );

    // Broken again in another way before it is fixed: the entry changes, no second notification.
    await save(file, good.replace(/^priority: .*$/m, 'priority: urgent'));
    await waitFor(
      () => /"priority" must be one of/.test(problems().get(file)?.[0].message ?? ''),
      'the changed entry',
      8000,
    );
    assert.equal(double.messages.filter((m) => m.kind === 'warning' && m.text.includes(name)).length, 1);

    await save(file, good);
    await waitFor(() => !problems().has(file), 'the diagnostic to clear', 8000);
    await waitFor(
      () => [...panel.webview.posted].reverse().find((m) => m.type === 'invalidFiles')?.files.length === 0,
      'the notice to clear',
    );
  });

  it('when the board asks to open a broken file, then it opens at the line, and a path outside the kanban folder is refused', async () => {
    const folder = await folderWithCards(['Open me']);
    activateWith([folder]);
    const panel = await openReadyBoard();
    const dir = path.join(folder, '.kanban/boards/default/backlog');
    const [name] = await fs.readdir(dir);
    panel.webview.send({ type: 'openFile', path: `.kanban/boards/default/backlog/${name}`, line: 4 });
    await waitFor(() => double.openedAt.length === 1, 'the file to open');
    assert.deepEqual(double.openedAt[0], { path: path.join(dir, name), line: 3 });
    panel.webview.send({ type: 'openFile', path: '../../etc/passwd' });
    // Messages are handled in order: once a later, valid open has happened, the refused one had
    // its turn, so only the two valid opens may be there.
    panel.webview.send({ type: 'openFile', path: `.kanban/boards/default/backlog/${name}`, line: 1 });
    await waitFor(() => double.openedAt.length >= 2, 'the later valid open');
    assert.deepEqual(
      double.openedAt.map((o: { path: string }) => o.path),
      [path.join(dir, name), path.join(dir, name)],
    );
  });

  it('when .kanban.json does not parse at open, then Problems shows it at the marker line and the board says why; after the fix, Retry connects and later edits arrive', async () => {
    const folder = await folderWithCards(['Survivor']);
    const config = path.join(folder, '.kanban.json');
    const good = `${JSON.stringify({ version: 2 }, null, 2)}\n`;
    await fs.writeFile(config, `{\n  "version": 2,\n<<<<<<< HEAD\n}\n`);
    activateWith([folder]);
    await runCommand('kanban.openBoard');
    const panel = double.panels[0];
    panel.webview.send({ type: 'ready' });
    const [diagnostic] = await waitFor(() => problems().get(config), 'a diagnostic on .kanban.json');
    assert.equal(diagnostic.range.startLine, 2);
    assert.ok(double.messages.some((m) => m.kind === 'warning' && /\.kanban\.json does not parse/.test(m.text)));
    assert.ok(
      !double.messages.some((m) => m.kind === 'error'),
      'one notification, not a second error about the same file',
    );
    panel.webview.send({ type: 'request', id: 1, method: 'GET', path: '/boards' });
    const refused = await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'response' && m.id === 1),
      'the answer',
    );
    assert.equal(refused.status, 503);
    assert.match(refused.body.error, /\.kanban\.json is invalid.*line 3.*press Retry/);

    await fs.writeFile(config, good);
    // Retry: the page loads again.
    panel.webview.send({ type: 'request', id: 2, method: 'GET', path: '/boards' });
    assert.equal(
      (await waitFor(() => panel.webview.posted.find((m) => m.type === 'response' && m.id === 2), 'the answer')).status,
      200,
    );
    await waitFor(() => panel.webview.posted.find((m) => m.type === 'hello'), 'hello after the retry');
    assert.ok(!problems().has(config), 'the config entry is gone');
    const [name] = await fs.readdir(path.join(folder, '.kanban/boards/default/backlog'));
    const file = path.join(folder, '.kanban/boards/default/backlog', name);
    await save(file, (await fs.readFile(file, 'utf8')).replace('# Survivor', '# Survivor, edited by hand'));
    const event = await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'event' && m.event === 'task.updated'),
      'the edit as an event',
      8000,
    );
    assert.equal(event.card.title, 'Survivor, edited by hand');
  });
});
