import { activateWith, deactivate, double, runCommand, tempFolder, waitFor } from './helpers/harness';
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { KanbanService } from '../../extension/service/kanbanService';
import { localToday } from '../../extension/cards/overdue';
import { Uri } from './helpers/vscodeDouble';

type Offered = { items: { label: string; description?: string; id?: string }[] };

/** A folder with cards made by the real service; answers each card's file by title. */
async function folderWith(cards: Record<string, unknown>[]): Promise<{ folder: string; fileOf: Map<string, string> }> {
  const folder = await tempFolder();
  const service = await KanbanService.open(folder);
  const fileOf = new Map<string, string>();
  for (const card of cards) {
    const answer = await service.dispatcher.dispatch({ method: 'POST', path: '/tasks', body: card });
    if (answer.status !== 201) throw new Error(`could not seed: ${JSON.stringify(answer.body)}`);
    const made = (answer.body as { data: { id: string; title: string; filePath: string } }).data;
    fileOf.set(made.title, path.join(folder, made.filePath));
  }
  await service.close();
  return { folder, fileOf };
}

function daysAgo(days: number): string {
  return localToday(new Date(Date.now() - days * 86_400_000));
}

describe('extension: cards and their files, linked both ways', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when a card file is the active editor, then the status bar names its column, and moving it from there takes the editor along', async () => {
    const { folder, fileOf } = await folderWith([{ content: '# Wire the webhook\n', status: 'todo' }]);
    activateWith([folder]);
    const oldFile = fileOf.get('Wire the webhook')!;
    double.openEditor(oldFile);
    const item = await waitFor(
      () => (double.statusItem('kanban.cardStatus')?.visible ? double.statusItem('kanban.cardStatus') : null),
      'the card status item',
    );
    assert.equal(item.text, '$(project) To Do');

    double.answer('quickPick', (o: Offered) => o.items.find((i) => i.label === 'In Progress'));
    const click = item.command as { command: string; arguments: unknown[] };
    await runCommand(click.command, ...click.arguments);

    const newFile = oldFile.replace(`${path.sep}todo${path.sep}`, `${path.sep}in-progress${path.sep}`);
    await waitFor(
      () => double.tabs.some((t) => t.input.uri.fsPath === newFile && t.isActive),
      'the editor on the moved file',
    );
    assert.ok(!double.tabs.some((t) => t.input.uri.fsPath === oldFile), 'the tab on the old path is closed');
    assert.ok(!existsSync(oldFile));
    await waitFor(
      () => double.statusItem('kanban.cardStatus')?.text === '$(project) In Progress',
      'the status bar to follow the move',
    );
  });

  it("when a card's file has unsaved changes in an editor, then a board edit is refused naming them and nothing is written; once saved, the edit goes ahead", async () => {
    const { folder, fileOf } = await folderWith([{ content: '# Half edited\n', status: 'todo' }]);
    const parts = activateWith([folder]);
    const file = fileOf.get('Half edited')!;
    const before = await fs.readFile(file, 'utf8');
    const tab = double.openEditor(file, { dirty: true });
    const service = await parts.services.get(parts.folders.all()[0]);
    const id = path.basename(file, '.md');
    for (const [method, route, body] of [
      ['PATCH', `/boards/default/tasks/${id}/move`, { status: 'done' }],
      ['PUT', `/boards/default/tasks/${id}`, { priority: 'high' }],
    ] as const) {
      const refused = await service.dispatcher.dispatch({ method, path: route, body });
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.match(
        (refused.body as { error: string }).error,
        new RegExp(`todo/${id}\\.md has unsaved changes in the editor`),
      );
    }
    assert.equal(await fs.readFile(file, 'utf8'), before, 'the file under the dirty buffer is untouched');
    tab.dirty = false;
    assert.equal(
      (
        await service.dispatcher.dispatch({
          method: 'PATCH',
          path: `/boards/default/tasks/${id}/move`,
          body: { status: 'done' },
        })
      ).status,
      200,
    );
    assert.ok(existsSync(path.join(folder, '.kanban', 'boards', 'default', 'done', `${id}.md`)));
  });

  it('when Show on Board runs on a card file from the Explorer, then the board opens with that card', async () => {
    const { folder, fileOf } = await folderWith([{ content: '# Find me\n', status: 'review' }]);
    activateWith([folder]);
    const file = fileOf.get('Find me')!;
    await runCommand('kanban.showOnBoard', Uri.file(file));
    const panel = double.panels.at(-1)!;
    panel.webview.send({ type: 'ready' });
    const shown = await waitFor(() => panel.webview.posted.find((m) => m.type === 'openTask'), 'openTask');
    assert.deepEqual(shown, { type: 'openTask', boardId: 'default', taskId: path.basename(file, '.md') });
  });

  it('when Show on Board runs on a file that is not a card, then the user is told so and no board opens', async () => {
    const folder = await tempFolder();
    await fs.writeFile(path.join(folder, 'notes.md'), '# Notes\n');
    activateWith([folder]);
    await runCommand('kanban.showOnBoard', Uri.file(path.join(folder, 'notes.md')));
    assert.equal(double.panels.length, 0);
    assert.match(double.messages.at(-1)?.text ?? '', /notes\.md is not a card/);
  });

  it('when the git user has overdue cards on the board, then the status bar counts them and the list opens one on the board', async () => {
    const { folder } = await folderWith([
      { content: '# Late and mine\n', status: 'todo', assignee: 'Ada Lovelace', dueDate: daysAgo(3) },
      { content: '# Due today\n', status: 'todo', assignee: 'Ada Lovelace', dueDate: localToday() },
      { content: '# Late but done\n', status: 'done', assignee: 'Ada Lovelace', dueDate: daysAgo(5) },
      { content: '# Late, not mine\n', status: 'todo', assignee: 'Grace Hopper', dueDate: daysAgo(2) },
    ]);
    execFileSync('git', ['init', '-q'], { cwd: folder });
    execFileSync('git', ['config', 'user.name', 'Ada Lovelace'], { cwd: folder });
    const parts = activateWith([folder]);
    await parts.services.get(parts.folders.all()[0]);
    const item = await waitFor(
      () =>
        /overdue/.test(double.statusItem('kanban.overdue')?.text ?? '') ? double.statusItem('kanban.overdue') : null,
      'the overdue count',
    );
    assert.equal(item.text, '$(project) Default · $(warning) 1 overdue');
    assert.equal(item.command, 'kanban.showMyOverdueCards');

    let offered: Offered | undefined;
    double.answer('quickPick', (o: Offered) => {
      offered = o;
      return o.items[0];
    });
    await runCommand('kanban.showMyOverdueCards');
    assert.deepEqual(
      offered!.items.map((i) => i.label),
      ['Late and mine'],
    );
    const panel = double.panels.at(-1)!;
    panel.webview.send({ type: 'ready' });
    const shown = await waitFor(() => panel.webview.posted.find((m) => m.type === 'openTask'), 'openTask');
    assert.match(shown.taskId, /^late-and-mine/);
  });
});
