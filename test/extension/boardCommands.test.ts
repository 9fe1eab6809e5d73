import {
  activateWith,
  deactivate,
  double,
  folderWithCards,
  listFiles,
  openReadyBoard,
  runCommand,
  tempFolder,
  waitFor,
} from './helpers/harness';
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { env, Uri } from './helpers/vscodeDouble';
import type { FakeWebviewPanel } from './helpers/vscodeDouble';

async function request(panel: FakeWebviewPanel, id: number, method: string, urlPath: string, body?: unknown) {
  panel.webview.send({ type: 'request', id, method, path: urlPath, body });
  return waitFor(() => panel.webview.posted.find((m) => m.type === 'response' && m.id === id), `response ${id}`);
}

/** A folder with a second board, Roadmap, beside Default. */
async function twoBoards(): Promise<{ folder: string; panel: FakeWebviewPanel }> {
  const folder = await folderWithCards(['On default']);
  activateWith([folder]);
  const panel = await openReadyBoard();
  assert.equal((await request(panel, 1, 'POST', '/boards', { id: 'roadmap', name: 'Roadmap' })).status, 201);
  return { folder, panel };
}

type Offered = {
  items: { label: string; description?: string; id?: string }[];
  options: { title?: string };
  active?: { label: string }[];
};

describe('extension: palette commands act on the board on screen', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when the panel shows Roadmap, then Switch Board calls Roadmap current and choosing Default tells the panel to show Default', async () => {
    const { panel } = await twoBoards();
    panel.webview.send({ type: 'boardShown', boardId: 'roadmap' });
    let offered: Offered | undefined;
    double.answer('quickPick', (o: Offered) => {
      offered = o;
      return o.items.find((i) => i.label === 'Default');
    });
    await runCommand('kanban.switchBoard');
    assert.equal(offered!.items.find((i) => i.label === 'Roadmap')!.description, 'current');
    assert.doesNotMatch(offered!.items.find((i) => i.label === 'Default')!.description ?? '', /current/);
    assert.deepEqual(panel.webview.posted.at(-1), { type: 'showBoard', boardId: 'default' });
  });

  it('when the panel shows Roadmap, then Add Card says Roadmap and the card lands there', async () => {
    const { folder, panel } = await twoBoards();
    panel.webview.send({ type: 'boardShown', boardId: 'roadmap' });
    let title = '';
    double.answer('input', (o: { title: string }) => {
      title = o.title;
      return 'Plan the next quarter';
    });
    double.answer('quickPick', (o: Offered) => o.items.find((i) => i.id === 'todo'));
    double.answer('quickPick', (o: Offered) => o.active?.[0]);
    await runCommand('kanban.addCard');
    assert.equal(title, 'Add Card to Roadmap');
    const files = await listFiles(path.join(folder, '.kanban/boards'));
    assert.ok(
      files.some((f) => f.startsWith('roadmap/todo/plan-the-next-quarter-')),
      files.join(', '),
    );
  });

  it('when Search Cards picks a card on another board, then the panel is told to open that card', async () => {
    const { panel } = await twoBoards();
    assert.equal(
      (await request(panel, 2, 'POST', '/boards/roadmap/tasks', { content: '# Roadmap card\n' })).status,
      201,
    );
    double.answer('quickPick', (o: Offered) => o.items.find((i) => i.label === 'Roadmap card'));
    await runCommand('kanban.searchCards');
    const command = await waitFor(() => panel.webview.posted.find((m) => m.type === 'openTask'), 'openTask');
    assert.equal(command.boardId, 'roadmap');
    assert.match(command.taskId, /^roadmap-card-/);
  });

  it('when the folder has two boards, then Open Card File and Search Cards name each card by board and column alike', async () => {
    const { panel } = await twoBoards();
    assert.equal(
      (await request(panel, 2, 'POST', '/boards/roadmap/tasks', { content: '# Roadmap card\n' })).status,
      201,
    );
    const rows = (o: Offered) => o.items.map((i) => `${i.label}: ${i.description}`).sort();
    const offered: string[][] = [];
    for (const command of ['kanban.openCardFile', 'kanban.searchCards']) {
      double.answer('quickPick', (o: Offered) => void offered.push(rows(o)));
      await runCommand(command);
    }
    assert.deepEqual(offered[0], ['On default: Default · Backlog', 'Roadmap card: Roadmap · Backlog']);
    assert.deepEqual(offered[1], offered[0]);
  });

  it('when Add Card asks for the priority, then they are listed critical, high, medium, low with the default highlighted', async () => {
    activateWith([await folderWithCards([])]);
    let offered: Offered | undefined;
    double.answer('input', 'Anything');
    double.answer('quickPick', (o: Offered) => o.items[0]);
    double.answer('quickPick', (o: Offered) => {
      offered = o;
      return o.active?.[0];
    });
    await runCommand('kanban.addCard');
    assert.deepEqual(
      offered!.items.map((i) => i.label),
      ['critical', 'high', 'medium', 'low'],
    );
    assert.deepEqual(
      offered!.active!.map((i) => i.label),
      ['medium'],
    );
    assert.match(double.messages.at(-1)!.text, /added "Anything"/);
  });

  it('when Open Card File lists cards, then each shows its column by name', async () => {
    activateWith([await folderWithCards(['Named column'], { status: 'in-progress' })]);
    let offered: Offered | undefined;
    double.answer('quickPick', (o: Offered) => {
      offered = o;
      return undefined;
    });
    await runCommand('kanban.openCardFile');
    assert.equal(offered!.items[0].description, 'In Progress');
  });

  it('when a command fails, then the message names it by its title, never its internal id', async () => {
    activateWith([await folderWithCards(['Present'])]);
    await runCommand('kanban.openCardFile', { boardId: 'default', taskId: 'no-such-card' });
    const error = double.messages.find((m) => m.kind === 'error')!;
    assert.match(error.text, /^Kanban: Open Card File failed: /);
    assert.doesNotMatch(error.text, /kanban\.openCardFile/);
  });
});

describe('extension: API docs and storage migrations', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when the editor forwards the port and drops the path (code-server), then Open API Docs still opens /api/docs there', async () => {
    const folder = await tempFolder();
    activateWith([folder], { 'kanban.server.port': 0 });
    const original = env.asExternalUri;
    const seen: string[] = [];
    env.asExternalUri = async (uri) => {
      seen.push(uri.toString());
      return Uri.parse('https://editor.example/proxy/4242/');
    };
    try {
      double.answer('message', 'Start API Server');
      await runCommand('kanban.openApiDocs');
      assert.match(seen[0], /^http:\/\/127\.0\.0\.1:\d+\/api\/docs$/);
      assert.deepEqual(double.openedExternal, ['https://editor.example/proxy/4242/api/docs']);
    } finally {
      env.asExternalUri = original;
      await runCommand('kanban.stopApiServer');
    }
  });

  it('when Migrate to SQLite runs in the editor, then after a confirmation the cards move into .kanban/kanban.db on the WebAssembly driver, and a second run says already SQLite', async () => {
    // What VS Code's runtime leaves: the native driver cannot load, so the WebAssembly one opens the file.
    process.env.KANBAN_SQLITE_DRIVER = 'wasm';
    try {
      const folder = await folderWithCards(['Moves to SQLite']);
      activateWith([folder]);
      double.answer('message', 'Migrate');
      await runCommand('kanban.migrateToSqlite');
      const [asked, done] = double.messages;
      assert.match(asked.text, /into a SQLite database \(\.kanban\/kanban\.db\)/);
      assert.equal(done.kind, 'info');
      assert.match(done.text, /moved 1 card\(s\) to SQLite storage/);
      const storage = JSON.parse(await fs.readFile(path.join(folder, '.kanban.json'), 'utf8'));
      assert.equal(storage.plugins['card.storage'].provider, 'sqlite');
      assert.ok((await listFiles(folder)).includes('.kanban/kanban.db'));

      double.messages.length = 0;
      await runCommand('kanban.migrateToSqlite');
      assert.equal(double.messages.length, 1);
      assert.match(double.messages[0].text, /already stored in SQLite/);
    } finally {
      delete process.env.KANBAN_SQLITE_DRIVER;
    }
  });

  it('when Migrate to Markdown runs on a Markdown workspace, then it says already Markdown without asking', async () => {
    activateWith([await folderWithCards(['Markdown card'])]);
    await runCommand('kanban.migrateToMarkdown');
    assert.equal(double.messages.length, 1);
    assert.equal(double.messages[0].kind, 'info');
    assert.match(double.messages[0].text, /already stored as Markdown files/);
  });
});

describe('extension: who writes comments and how the board looks', () => {
  afterEach(async () => {
    await deactivate();
  });

  it("when the folder's git config names a user, then the board gets that name for new comments", async () => {
    const folder = await folderWithCards(['Discuss']);
    execFileSync('git', ['init', '-q', folder]);
    execFileSync('git', ['config', 'user.name', 'Ada Lovelace'], { cwd: folder });
    activateWith([folder]);
    const panel = await openReadyBoard();
    assert.deepEqual(
      panel.webview.posted.find((m) => m.type === 'identity'),
      { type: 'identity', name: 'Ada Lovelace' },
    );
  });

  it('when the board opens in VS Code, then its look is native, and a choice for me goes to VS Code settings, not .kanban.json', async () => {
    const folder = await folderWithCards(['Look']);
    const shared = await fs.readFile(path.join(folder, '.kanban.json'), 'utf8');
    activateWith([folder]);
    const panel = await openReadyBoard();
    assert.deepEqual(panel.webview.posted.find((m) => m.type === 'display')?.display, {
      background: 'native',
      preset: 'aurora',
    });
    panel.webview.send({ type: 'setDisplay', scope: 'me', background: 'fancy', preset: 'sunset' });
    await waitFor(
      () => [...panel.webview.posted].reverse().find((m) => m.type === 'display')?.display.preset === 'sunset',
      'the new display',
    );
    assert.deepEqual(
      double.settingUpdates.map((u) => [u.key, u.value, u.target]),
      [
        ['kanban.board.background', 'fancy', 1],
        ['kanban.board.backgroundPreset', 'sunset', 1],
      ],
    );
    assert.equal(
      await fs.readFile(path.join(folder, '.kanban.json'), 'utf8'),
      shared,
      'the shared file is not written',
    );
  });

  it('when the choice is for the team, then .kanban.json changes and the user follows the shared setting', async () => {
    const folder = await folderWithCards(['Team look']);
    activateWith([folder]);
    const panel = await openReadyBoard();
    panel.webview.send({ type: 'setDisplay', scope: 'team', background: 'plain', preset: 'meadow' });
    await waitFor(() => double.settingUpdates.length > 0, 'the user setting');
    const config = JSON.parse(await fs.readFile(path.join(folder, '.kanban.json'), 'utf8'));
    assert.equal(config.settings.boardBackgroundMode, 'plain');
    assert.equal(config.settings.boardBackgroundPreset, 'meadow');
    assert.deepEqual(
      double.settingUpdates.map((u) => [u.key, u.value]),
      [['kanban.board.background', 'shared']],
    );
  });
});
