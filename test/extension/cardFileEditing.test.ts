import {
  activateWith,
  deactivate,
  double,
  folderWithCardBodies,
  openReadyBoard,
  runCommand,
  waitFor,
} from './helpers/harness';
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  type CodeAction,
  type CodeLens,
  type CompletionItem,
  editDocument,
  type FakeTextDocument,
  openDocument,
  Position,
  Range,
  ViewColumn,
  workspace,
} from './helpers/vscodeDouble';

const BACKLOG = '.kanban/boards/default/backlog';

/** A folder with one card in the backlog; answers the card's file. */
async function oneCard(body: Record<string, unknown> = {}): Promise<{ folder: string; file: string }> {
  const folder = await folderWithCardBodies([{ content: '# Typed by hand\n', ...body }]);
  const [name] = await fs.readdir(path.join(folder, BACKLOG));
  return { folder, file: path.join(folder, BACKLOG, name) };
}

function provider(kind: 'completion' | 'codeActions' | 'codeLens') {
  const found = double.providers.find((p) => p.kind === kind);
  assert.ok(found, `a ${kind} provider is registered`);
  return found.provider;
}

function lineOf(document: FakeTextDocument, key: string): number {
  return document
    .getText()
    .split('\n')
    .findIndex((line) => line.startsWith(`${key}:`));
}

const frontmatterProblems = (file: string) => double.diagnostics.get('kanban-frontmatter')?.byPath.get(file) ?? [];

describe('extension: card files as documents (completion, checks, Quick Fixes, lenses)', () => {
  afterEach(async () => {
    await deactivate();
  });

  it("when the cursor is after `status:` in a card file, then completion offers the board's column ids with their names", async () => {
    const { folder, file } = await oneCard();
    activateWith([folder]);
    const document = await openDocument(file);
    const line = lineOf(document, 'status');
    const items: CompletionItem[] = await provider('completion').provideCompletionItems(
      document,
      new Position(line, 'status: '.length),
    );
    assert.deepEqual(
      items.map((item) => [item.label, item.detail]),
      [
        ['backlog', 'Backlog'],
        ['todo', 'To Do'],
        ['in-progress', 'In Progress'],
        ['review', 'Review'],
        ['done', 'Done'],
      ],
    );
    assert.deepEqual(items[0].range, new Range(line, 'status: '.length, line, 'status: '.length));
  });

  it('when a priority is mistyped, then a warning names the known ones at the value, and its Quick Fix writes the closest', async () => {
    const { folder, file } = await oneCard();
    activateWith([folder]);
    const document = await openDocument(file);
    const line = lineOf(document, 'priority');
    editDocument(document, new Range(line, 'priority: '.length, line, 'priority: medium'.length), 'hihg');

    const [warning] = await waitFor(() => frontmatterProblems(file)[0] && frontmatterProblems(file), 'the warning');
    assert.match(
      warning.message,
      /"hihg" is not a priority; known: critical, high, medium, low\. Did you mean "high"\?/,
    );
    assert.deepEqual(warning.range, new Range(line, 10, line, 14));

    const actions: CodeAction[] = await provider('codeActions').provideCodeActions(document, warning.range, {
      diagnostics: [warning],
    });
    const fix = actions.find((action) => action.isPreferred)!;
    assert.equal(fix.title, 'Change to "high"');
    assert.deepEqual(fix.diagnostics, [warning]);
    assert.ok(await workspace.applyEdit(fix.edit!));
    assert.equal(document.getText().split('\n')[line], 'priority: high');
    await waitFor(() => frontmatterProblems(file).length === 0, 'the warning to go once fixed');
  });

  it('when a status names no column of the board, then it is flagged; a known status in another folder is a hint with both fixes', async () => {
    const { folder, file } = await oneCard();
    activateWith([folder]);
    const document = await openDocument(file);
    const line = lineOf(document, 'status');
    editDocument(document, new Range(line, 8, line, 'status: backlog'.length), 'revew');
    const [unknown] = await waitFor(() => frontmatterProblems(file)[0] && frontmatterProblems(file), 'the warning');
    assert.match(unknown.message, /"revew" is not a column of this card's board; .* Did you mean "review"\?/);

    editDocument(document, new Range(line, 8, line, 'status: revew'.length), 'done');
    const [mismatch] = await waitFor(
      () => frontmatterProblems(file).find((d) => /folder/.test(d.message)) && frontmatterProblems(file),
      'the folder hint',
    );
    const actions: CodeAction[] = await provider('codeActions').provideCodeActions(document, mismatch.range, {
      diagnostics: [mismatch],
    });
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Set status to "backlog" (the file\'s folder)', 'Move the file to the "done" folder'],
    );
    assert.equal(
      actions[1].edit!.renames[0].to.fsPath,
      path.join(folder, '.kanban/boards/default/done', path.basename(file)),
    );
  });

  it('when a card file stops parsing, then its Problems entry offers the version the board kept, opened beside', async () => {
    const { folder, file } = await oneCard();
    activateWith([folder]);
    const good = await fs.readFile(file, 'utf8');
    await openReadyBoard();
    await fs.writeFile(file, good.replace(/^priority: .*$/m, 'priority: [unclosed'));
    const [broken] = await waitFor(
      () => double.diagnostics.get('kanban')?.byPath.get(file),
      'the Problems entry',
      8000,
    );
    const document = await openDocument(file);
    const actions: CodeAction[] = await provider('codeActions').provideCodeActions(document, broken.range, {
      diagnostics: [broken],
    });
    const open = actions.find((a) => /last good version/.test(a.title));
    assert.ok(open, actions.map((a) => a.title).join(', '));
    await runCommand(open.command!.command, ...open.command!.arguments!);
    const shown = double.documents.at(-1)!;
    assert.equal(shown.uri.scheme, 'untitled');
    assert.equal(shown.getText(), good);
    assert.equal(double.shownIn.at(-1)?.viewColumn, ViewColumn.Beside);
  });

  it('when a card file is open, then its CodeLenses run Show on Board and Move to… on that file', async () => {
    const { folder, file } = await oneCard();
    activateWith([folder]);
    const document = await openDocument(file);
    const lenses: CodeLens[] = provider('codeLens').provideCodeLenses(document);
    assert.deepEqual(
      lenses.map((lens) => [lens.command!.title, lens.command!.command, lens.command!.arguments![0]]),
      [
        ['Show on Board', 'kanban.showOnBoard', document.uri],
        ['Move to…', 'kanban.moveCardOfFile', document.uri],
      ],
    );
    double.answer('quickPick', (offered: { items: { label: string }[] }) =>
      offered.items.find((i) => i.label === 'Done'),
    );
    await runCommand(lenses[1].command!.command, ...lenses[1].command!.arguments!);
    await waitFor(
      async () => (await fs.readdir(path.join(folder, '.kanban/boards/default/done'))).length === 1,
      'the card moved to Done',
    );
  });

  it('when the board asks to open a card file, then it opens beside the board, not in its group', async () => {
    const { folder, file } = await oneCard();
    activateWith([folder]);
    const panel = await openReadyBoard();
    panel.webview.send({ type: 'openFile', path: `${BACKLOG}/${path.basename(file)}` });
    const shown = await waitFor(() => double.shownIn.find((s) => s.path === file), 'the card file shown');
    assert.equal(shown.viewColumn, ViewColumn.Beside);
  });
});
