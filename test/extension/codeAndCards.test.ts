import { activateWith, deactivate, double, folderWithCardBodies, runCommand, waitFor } from './helpers/harness';
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { KanbanService } from '../../extension/service/kanbanService';
import {
  type CodeAction,
  EventEmitter,
  FakeTextDocument,
  type Hover,
  openDocument,
  Position,
  Range,
  Uri,
} from './helpers/vscodeDouble';

type Offered = { items: { id?: string; label: string }[]; active?: { label: string }[] };

/** The cards of the folder's default board, read by a fresh service (what is on disk). */
async function cardsOn(folder: string) {
  const service = await KanbanService.open(folder);
  try {
    return service.workspace.index.allCards();
  } finally {
    await service.close();
  }
}

async function cardIdOf(folder: string, column = 'backlog'): Promise<string> {
  const [name] = await fs.readdir(path.join(folder, '.kanban/boards/default', column));
  return name.replace(/\.md$/, '');
}

function provider(kind: 'codeActions' | 'hover', index = -1) {
  const found = double.providers.filter((p) => p.kind === kind).at(index);
  assert.ok(found, `a ${kind} provider is registered`);
  return found.provider;
}

const branchItem = () => double.statusItem('kanban.branchCard');

describe('extension: code and cards together (selection, TODOs, branch, commit message, hovers)', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when text is selected and Create Card from Selection is run, then the card holds it with a link to its lines', async () => {
    const folder = await folderWithCardBodies([]);
    await fs.mkdir(path.join(folder, 'src'));
    const source = path.join(folder, 'src', 'login.ts');
    await fs.writeFile(source, 'const a = 1;\n  Fix the login redirect\n  It loops after logout.\nconst b = 2;\n');
    activateWith([folder]);
    await openDocument(source);
    double.openEditor(source).selection = new Range(1, 0, 3, 0);
    double.answer('quickPick', (o: Offered) => o.items.find((i) => i.id === 'todo'));
    double.answer('quickPick', (o: Offered) => o.active?.[0]);
    await runCommand('kanban.createCardFromSelection');

    const [card] = await cardsOn(folder);
    assert.equal(card.status, 'todo');
    assert.equal(
      card.content,
      '# Fix the login redirect\n\nIt loops after logout.\n\nFrom [login.ts:2-3](../../../../src/login.ts#L2-L3)\n',
    );
    // The link is relative to the card's own file: it leads to the source from there.
    const cardDir = path.join(folder, '.kanban/boards/default/todo');
    await fs.access(path.resolve(cardDir, '../../../../src/login.ts'));
  });

  it('when nothing is selected, then Create Card from Selection says so and adds nothing', async () => {
    const folder = await folderWithCardBodies([]);
    const source = path.join(folder, 'notes.txt');
    await fs.writeFile(source, 'hello\n');
    activateWith([folder]);
    await openDocument(source);
    double.openEditor(source).selection = new Range(0, 2, 0, 2);
    await runCommand('kanban.createCardFromSelection');
    assert.match(double.messages.at(-1)!.text, /select the text/);
    assert.deepEqual(await cardsOn(folder), []);
  });

  it('when the Quick Fix on a TODO comment is taken, then a card is made of its text and the comment carries the id (undoable edit)', async () => {
    const folder = await folderWithCardBodies([]);
    const source = path.join(folder, 'app.py');
    await fs.writeFile(source, 'x = 1\n# TODO: handle the empty cart\ny = 2\n');
    activateWith([folder]);
    const document = await openDocument(source);
    const none: CodeAction[] = provider('codeActions').provideCodeActions(document, new Range(0, 0, 0, 0));
    assert.deepEqual(none, []);
    const [action]: CodeAction[] = provider('codeActions').provideCodeActions(document, new Range(1, 3, 1, 3));
    assert.equal(action.title, 'Create a card from this TODO');
    await runCommand(action.command!.command, ...action.command!.arguments!);

    const [card] = await cardsOn(folder);
    assert.equal(card.content.split('\n')[0], '# handle the empty cart');
    assert.equal(document.getText(), `x = 1\n# TODO(kanban:${card.id}): handle the empty cart\ny = 2\n`);
    assert.equal(double.appliedEdits.length, 1, 'one WorkspaceEdit, which the editor can undo');
    const linked: CodeAction[] = provider('codeActions').provideCodeActions(document, new Range(1, 3, 1, 3));
    assert.deepEqual(linked, [], 'a TODO that has its card is offered no second one');
  });

  it('when a FIXME names an owner and closes a block comment, then the owner stays and the closing marks stay out of the title', async () => {
    const folder = await folderWithCardBodies([]);
    const source = path.join(folder, 'style.css');
    await fs.writeFile(source, '/* FIXME(alice): the header overlaps */\n');
    activateWith([folder]);
    const document = await openDocument(source);
    const [action]: CodeAction[] = provider('codeActions').provideCodeActions(document, new Range(0, 0, 0, 0));
    await runCommand(action.command!.command, ...action.command!.arguments!);
    const [card] = await cardsOn(folder);
    assert.equal(card.content.split('\n')[0], '# the header overlaps');
    assert.equal(document.getText(), `/* FIXME(alice, kanban:${card.id}): the header overlaps */\n`);
  });

  it('when the checked-out branch is named after a card, then the status bar shows it with its column; after a switch to another branch it hides', async () => {
    const folder = await folderWithCardBodies([{ content: '# Fix login\n', status: 'in-progress' }]);
    const id = await cardIdOf(folder, 'in-progress');
    await fs.mkdir(path.join(folder, '.git'));
    await fs.writeFile(path.join(folder, '.git', 'HEAD'), `ref: refs/heads/kanban/${id}\n`);
    const parts = activateWith([folder]);
    await parts.services.get(parts.folders.primary()!);
    const item = await waitFor(() => (branchItem()?.visible ? branchItem() : undefined), 'the branch card item');
    assert.equal(item.text, '$(git-branch) Fix login · In Progress');
    assert.deepEqual(item.command, {
      title: 'Show on Board',
      command: 'kanban.showOnBoard',
      arguments: [{ folderKey: parts.folders.primary()!.key, boardId: 'default', taskId: id }],
    });

    // As `git checkout main` does: a new HEAD renamed over the old one.
    await fs.writeFile(path.join(folder, '.git', 'HEAD.lock'), 'ref: refs/heads/main\n');
    await fs.rename(path.join(folder, '.git', 'HEAD.lock'), path.join(folder, '.git', 'HEAD'));
    await waitFor(() => !branchItem()!.visible, 'the item to hide on an unlinked branch');
  });

  it('when the cursor is on a card id in a commit message, then the hover shows its title, column, assignee and Show on Board', async () => {
    const folder = await folderWithCardBodies([{ content: '# Write docs\n', assignee: 'alice' }]);
    const id = await cardIdOf(folder);
    activateWith([folder]);
    const message = `Describe the API\n\nKanban: ${id}\n`;
    const document = new FakeTextDocument(Uri.parse('vscode-scm:input'), message, 'scminput');
    const hover: Hover = await provider('hover').provideHover(document, new Position(2, 'Kanban: '.length + 3));
    assert.match(hover.contents.value, /\*\*Write docs\*\*/);
    assert.match(hover.contents.value, /Backlog · alice/);
    assert.match(hover.contents.value, /\[Show on Board\]\(command:kanban\.showOnBoard\?/);
    const none = await provider('hover').provideHover(document, new Position(0, 2));
    assert.equal(none, undefined, 'an ordinary word has no hover');
    // The message written in an editor (git.useEditorAsCommitInput) is a git-commit document.
    const hovered = double.providers.filter((p) => p.kind === 'hover').at(-1)?.selector as { language: string }[];
    assert.deepEqual(hovered.map((s) => s.language).sort(), ['git-commit', 'markdown', 'scminput']);
  });

  it('when the git API reports only card file changes and the input is empty, then it suggests a message; a typed one is never replaced', async () => {
    const folder = await folderWithCardBodies([
      { content: '# Fix login\n', status: 'done' },
      { content: '# Write docs\n' },
    ]);
    const done = await cardIdOf(folder, 'done');
    const added = await cardIdOf(folder, 'backlog');
    const changed = new EventEmitter<void>();
    // What each listener of the change event returned: the suggestion's work, to wait for.
    const handling: unknown[] = [];
    const onDidChange = (listener: () => unknown) => changed.event(() => void handling.push(listener()));
    const changeHandled = async () => {
      changed.fire();
      const work = handling.splice(0);
      assert.ok(work.length > 0 && work.every((w) => w instanceof Promise), 'the suggestion hands back its work');
      await Promise.all(work);
    };
    const uri = (relative: string) => Uri.file(path.join(folder, relative));
    const change = (relative: string, status: number) => ({ uri: uri(relative), originalUri: uri(relative), status });
    const repository = {
      rootUri: Uri.file(folder),
      inputBox: { value: '' },
      state: {
        indexChanges: [] as object[],
        workingTreeChanges: [
          change(`.kanban/boards/default/in-progress/${done}.md`, 6),
          change(`.kanban/boards/default/done/${done}.md`, 7),
          change(`.kanban/boards/default/backlog/${added}.md`, 7),
        ],
        onDidChange,
      },
    };
    const git = { getAPI: () => ({ repositories: [repository], onDidOpenRepository: new EventEmitter().event }) };
    activateWith([folder], {}, { extensions: { 'vscode.git': git } });
    await waitFor(() => changed.listenerCount > 0, 'the suggestion to follow the repository');
    await changeHandled();
    assert.equal(repository.inputBox.value, "Board: move 'Fix login' to Done; add 'Write docs'");

    repository.inputBox.value = 'My own words';
    await changeHandled();
    assert.equal(repository.inputBox.value, 'My own words');

    repository.inputBox.value = '';
    repository.state.workingTreeChanges.push(change('src/app.ts', 5));
    await changeHandled();
    assert.equal(repository.inputBox.value, '', 'code changes: no board message');
  });
});
