import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionParts } from '../../../extension/parts';
// Bundled by esbuild into the suite, so the shared test helpers (no vscode, no server) come along.
import { waitUntil } from '../../helpers/waiting';

/** The extension host starts slowly and has no server to ask: a generous wait, polled calmly. */
const HOST_WAIT_MS = 20_000;
const HOST_STEP_MS = 100;

/**
 * Runs inside the extension host of a real VS Code, against the real `vscode` API and the
 * installed extension (not the double of test/extension). The e2e test
 * test/e2e/extensionHost.e2e.test.ts starts code-server over a workspace with a Default and a
 * Roadmap board and collects the results; @vscode/test-electron can run the same bundle as its
 * extensionTestsPath where VS Code can be downloaded.
 */

const EXTENSION_ID = 'repo-kanban.kanban-board-service';

function folderRef() {
  const folder = vscode.workspace.workspaceFolders![0];
  return { key: folder.uri.toString(), name: folder.name, fsPath: folder.uri.fsPath };
}

function boardTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('kanban.board'));
}

describe('the extension in the extension host (real vscode API)', () => {
  let parts: ExtensionParts;

  before(async () => {
    const extension = vscode.extensions.getExtension<ExtensionParts>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    parts = await extension.activate();
  });

  it('when the extension activates, then every command it contributes is registered', async () => {
    const contributed = (
      vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.commands as { command: string }[]
    ).map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.ok(contributed.length >= 10, `contributed: ${contributed.join(', ')}`);
    assert.deepEqual(
      contributed.filter((c) => !registered.has(c)),
      [],
    );
  });

  it('when Open Board runs, then one board tab opens for the folder, and running it again reuses it', async () => {
    await vscode.commands.executeCommand('kanban.openBoard');
    await waitUntil(() => boardTabs().length === 1, HOST_WAIT_MS, 'the board tab', HOST_STEP_MS);
    await waitUntil(
      () => parts.panels.shownBoard(folderRef()) !== null,
      HOST_WAIT_MS,
      'the board to report what it shows',
      HOST_STEP_MS,
    );
    await vscode.commands.executeCommand('kanban.openBoard');
    assert.equal(boardTabs().length, 1);
  });

  it('when the host asks the board to show Roadmap, then the webview answers that it shows Roadmap, and back', async () => {
    const folder = folderRef();
    assert.ok(
      parts.panels.command(folder, { type: 'showBoard', boardId: 'roadmap' }),
      'the message reached an open board',
    );
    await waitUntil(
      () => parts.panels.shownBoard(folder) === 'roadmap',
      HOST_WAIT_MS,
      'the webview to show roadmap',
      HOST_STEP_MS,
    );
    parts.panels.command(folder, { type: 'showBoard', boardId: 'default' });
    await waitUntil(
      () => parts.panels.shownBoard(folder) === 'default',
      HOST_WAIT_MS,
      'the webview to show default',
      HOST_STEP_MS,
    );
  });

  it('when a card file is saved with broken YAML, then Problems holds an error at its line; fixed, it goes away', async () => {
    const folder = folderRef();
    const todo = path.join(folder.fsPath, '.kanban', 'boards', 'default', 'todo');
    const name = (await fs.readdir(todo)).find((f) => f.endsWith('.md'))!;
    const uri = vscode.Uri.file(path.join(todo, name));
    const good = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    const lines = good.split('\n');
    const priorityLine = lines.findIndex((line) => line.startsWith('priority:'));
    lines[priorityLine] = 'priority: [unclosed';
    await vscode.workspace.fs.writeFile(uri, Buffer.from(lines.join('\n')));
    try {
      await waitUntil(
        () => vscode.languages.getDiagnostics(uri).length > 0,
        HOST_WAIT_MS,
        'a diagnostic on the broken file',
        HOST_STEP_MS,
      );
      const problems = vscode.languages.getDiagnostics(uri);
      assert.equal(problems[0].severity, vscode.DiagnosticSeverity.Error);
      assert.ok(
        Math.abs(problems[0].range.start.line - priorityLine) <= 1,
        `reported at line ${problems[0].range.start.line}, broken at ${priorityLine}`,
      );
    } finally {
      await vscode.workspace.fs.writeFile(uri, Buffer.from(good));
    }
    await waitUntil(
      () => vscode.languages.getDiagnostics(uri).length === 0,
      HOST_WAIT_MS,
      'the diagnostic to clear',
      HOST_STEP_MS,
    );
  });

  it('when a card is added through the in-process service, then its file appears in the workspace', async () => {
    const folder = folderRef();
    const service = await parts.services.get(folder);
    const answer = await service!.dispatcher.dispatch({
      method: 'POST',
      path: '/tasks',
      body: { content: '# Made in the extension host\n', status: 'todo' },
    });
    assert.equal(answer.status, 201);
    const id = (answer.body as { data: { id: string } }).data.id;
    const files = await vscode.workspace.findFiles(`.kanban/boards/default/todo/${id}.md`);
    assert.equal(files.length, 1);
  });

  it('when a language model tool is invoked through vscode.lm, then it lists the cards and a created card is a file', async () => {
    const names = vscode.lm.tools.map((tool) => tool.name);
    assert.ok(names.includes('kanban_list_cards') && names.includes('kanban_create_card'), names.join(', '));
    const text = (result: vscode.LanguageModelToolResult) =>
      result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    const listed = JSON.parse(
      text(await vscode.lm.invokeTool('kanban_list_cards', { input: {}, toolInvocationToken: undefined })),
    ) as { cards: { title: string }[] };
    assert.ok(
      listed.cards.some((card) => card.title === 'Write the docs'),
      JSON.stringify(listed),
    );
    const created = JSON.parse(
      text(
        await vscode.lm.invokeTool('kanban_create_card', {
          input: { title: 'Made by a language model tool', status: 'todo' },
          toolInvocationToken: undefined,
        }),
      ),
    ) as { id: string };
    const files = await vscode.workspace.findFiles(`.kanban/boards/*/todo/${created.id}.md`);
    assert.equal(files.length, 1);
  });
});
