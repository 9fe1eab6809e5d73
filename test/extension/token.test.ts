import {
  activateWith,
  deactivate,
  double,
  folderWithCards,
  listFiles,
  openReadyBoard,
  runCommand,
  waitFor,
} from './helpers/harness';
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { FakeWebviewPanel } from './helpers/vscodeDouble';

/** Fresh random tokens per test, so finding one in the output can only mean the extension leaked it. */
function makeTokens() {
  const token = (who: string) => `tok-${who}-${randomBytes(16).toString('hex')}`;
  return { viewer: token('viewer'), editor: token('editor') };
}

/** A folder with cards whose .kanban.json turns on the token identity provider. */
async function guardedFolder(tokens: ReturnType<typeof makeTokens>, titles = ['Guarded card']): Promise<string> {
  const folder = await folderWithCards(titles);
  const configFile = path.join(folder, '.kanban.json');
  // The service writes .kanban.json only when a setting changes; without one it uses the defaults.
  const config = JSON.parse(await fs.readFile(configFile, 'utf8').catch(() => '{"version": 2}'));
  config.plugins = {
    ...config.plugins,
    'auth.identity': {
      provider: 'token',
      options: {
        tokens: [
          { token: tokens.viewer, subject: 'vera', role: 'viewer' },
          { token: tokens.editor, subject: 'eddie', role: 'editor' },
        ],
      },
    },
  };
  await fs.writeFile(configFile, JSON.stringify(config, null, 2));
  return folder;
}

let nextId = 1;
async function request(panel: FakeWebviewPanel, method: string, path: string, body?: unknown) {
  const id = nextId++;
  panel.webview.send({ type: 'request', id, method, path, body });
  return waitFor(
    () => panel.webview.posted.find((m) => m.type === 'response' && m.id === id),
    `response to ${method} ${path}`,
  );
}

/** The panel was told the token changed: a fresh hello after a disconnected message. */
async function reconnected(panel: FakeWebviewPanel, after: number): Promise<void> {
  await waitFor(
    () => panel.webview.posted.slice(after).find((m) => m.type === 'hello'),
    'a new hello after the token changed',
  );
}

const offers = () => double.messages.filter((m) => m.items.includes('Set Token'));
const outputLines = () => double.outputs.flatMap((o) => o.lines);

describe('extension API token (SecretStorage) with auth on', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when auth is on and no token is stored, then the board request gets 401 and the user is offered Set Token once', async () => {
    activateWith([await guardedFolder(makeTokens())]);
    // The notification stays on screen until the user acts; meanwhile more 401s must not stack more.
    let dismiss: (choice: undefined) => void = () => undefined;
    double.answer('message', () => new Promise((resolve) => (dismiss = resolve)));
    const panel = await openReadyBoard();
    const [boards, tasks] = await Promise.all([request(panel, 'GET', '/boards'), request(panel, 'GET', '/tasks')]);
    assert.equal(boards.status, 401);
    assert.equal(tasks.status, 401);
    assert.equal(tasks.body.ok, false);
    assert.match(tasks.body.error, /authentication required: run "Kanban: Set API Token"/);
    assert.equal(offers().length, 1);
    assert.equal(offers()[0].kind, 'warning');
    assert.match(offers()[0].text, /requires authentication/);
    dismiss(undefined);
  });

  it('when auth is on and no token is stored, then the page receives no card events', async () => {
    const tokens = makeTokens();
    const folder = await guardedFolder(tokens);
    const parts = activateWith([folder]);
    const panel = await openReadyBoard();
    const service = await parts.services.get(parts.folders.all()[0]);
    const made = await service.dispatcher.dispatch({
      method: 'POST',
      path: '/tasks',
      body: { content: '# Secret plan\n' },
      token: tokens.editor,
    });
    assert.equal(made.status, 201);
    // The same change reaches a page that may watch: set a viewer token and make another card.
    double.answer('input', tokens.viewer);
    const before = panel.webview.posted.length;
    await runCommand('kanban.setApiToken');
    await reconnected(panel, before);
    await service.dispatcher.dispatch({
      method: 'POST',
      path: '/tasks',
      body: { content: '# Public plan\n' },
      token: tokens.editor,
    });
    await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'event' && m.card?.title === 'Public plan'),
      'the event for the viewer',
    );
    assert.ok(!panel.webview.posted.some((m) => m.type === 'event' && m.card?.title === 'Secret plan'));
  });

  it('when the user clicks Set Token and enters a viewer token, then reads work and writes get 403', async () => {
    const tokens = makeTokens();
    const folder = await guardedFolder(tokens);
    activateWith([folder]);
    const panel = await openReadyBoard();
    let asked: { password?: boolean } = {};
    double.answer('message', ({ items }: { items: string[] }) =>
      items.includes('Set Token') ? 'Set Token' : undefined,
    );
    double.answer('input', (options: { password?: boolean }) => ((asked = options), tokens.viewer));
    const before = panel.webview.posted.length;
    assert.equal((await request(panel, 'GET', '/tasks')).status, 401);
    await reconnected(panel, before);
    assert.equal(asked.password, true, 'the input box hides what is typed');
    const [stored] = [...double.secrets.values.values()];
    assert.equal(stored, tokens.viewer);
    const list = await request(panel, 'GET', '/tasks');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((t: { title: string }) => t.title),
      ['Guarded card'],
    );
    const filesBefore = await listFiles(folder);
    const move = await request(panel, 'PATCH', `/tasks/${list.body.data[0].id}/move`, { status: 'done', position: 0 });
    assert.equal(move.status, 403);
    assert.match(move.body.error, /role "viewer" may not/);
    assert.deepEqual(await listFiles(folder), filesBefore, 'no card file moved');
    await waitFor(
      () => double.messages.find((m) => /you act as vera \(viewer\)/.test(m.text)),
      'who the token identifies',
    );
  });

  it('when an editor token is set, then the board moves a card as that subject and its file moves', async () => {
    const tokens = makeTokens();
    const folder = await guardedFolder(tokens);
    activateWith([folder]);
    const panel = await openReadyBoard();
    double.answer('input', tokens.editor);
    const before = panel.webview.posted.length;
    await runCommand('kanban.setApiToken');
    await reconnected(panel, before);
    const who = await request(panel, 'GET', '/auth');
    assert.equal(who.body.data.subject, 'eddie');
    assert.equal(who.body.data.role, 'editor');
    const [task] = (await request(panel, 'GET', '/tasks')).body.data;
    const move = await request(panel, 'PATCH', `/tasks/${task.id}/move`, { status: 'done', position: 0 });
    assert.equal(move.status, 200);
    await fs.access(path.join(folder, '.kanban/boards/default/done', `${task.id}.md`));
    await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'event' && m.event === 'task.moved'),
      'the move event',
    );
  });

  it('when a palette command runs without a token, then it offers Set Token instead of an error, and a viewer token gets a clear 403', async () => {
    const tokens = makeTokens();
    activateWith([await guardedFolder(tokens)]);
    await runCommand('kanban.addCard');
    assert.equal(offers().length, 1);
    assert.ok(!double.messages.some((m) => m.kind === 'error'), 'no error on top of the offer');
    double.answer('input', tokens.viewer);
    await runCommand('kanban.setApiToken');
    double.messages = [];
    double.answer('input', 'From the palette');
    double.answer('quickPick', ({ items }: { items: { id: string }[] }) => items.find((i) => i.id === 'todo'));
    double.answer('quickPick', ({ items }: { items: unknown[] }) => items[0]);
    await runCommand('kanban.addCard');
    const error = double.messages.find((m) => m.kind === 'error');
    assert.ok(error, 'the refusal is shown');
    assert.match(error.text, /role "viewer" may not POST/);
    assert.equal(offers().length, 0, 'a token that identifies someone is not offered again');
  });

  it('when Clear API Token runs, then the token leaves secret storage and the board is refused again', async () => {
    const tokens = makeTokens();
    activateWith([await guardedFolder(tokens)]);
    const panel = await openReadyBoard();
    double.answer('input', tokens.editor);
    await runCommand('kanban.setApiToken');
    await waitFor(async () => (await request(panel, 'GET', '/tasks')).status === 200, 'reads with the token');
    const before = panel.webview.posted.length;
    await runCommand('kanban.clearApiToken');
    assert.equal(double.secrets.values.size, 0);
    await reconnected(panel, before);
    assert.equal((await request(panel, 'GET', '/tasks')).status, 401);
  });

  it('when another window stores a token for the folder, then the open board reconnects with it', async () => {
    const tokens = makeTokens();
    activateWith([await guardedFolder(tokens)]);
    const panel = await openReadyBoard();
    const before = panel.webview.posted.length;
    double.secrets.storeFromElsewhere(`kanban.apiToken:${double.folders[0].uri.toString()}`, tokens.editor);
    await reconnected(panel, before);
    assert.equal((await request(panel, 'GET', '/tasks')).status, 200);
  });

  it('when a token is set for one folder, then another folder of the workspace does not use it', async () => {
    const tokens = makeTokens();
    const first = await guardedFolder(tokens, ['First folder card']);
    const second = await guardedFolder(tokens, ['Second folder card']);
    const parts = activateWith([first, second]);
    const [one, two] = parts.folders.all();
    double.answer('input', tokens.editor);
    await runCommand('kanban.setApiToken', one.key);
    assert.equal(await parts.access.tokens.get(one), tokens.editor);
    assert.equal(await parts.access.tokens.get(two), undefined);
    const service = await parts.services.get(two);
    assert.equal((await parts.access.dispatch(service, two, { method: 'GET', path: '/tasks' })).status, 401);
  });

  it('when tokens are set, used, refused and cleared, then no token appears in the output channel or a notification', async () => {
    const tokens = makeTokens();
    activateWith([await guardedFolder(tokens)]);
    const panel = await openReadyBoard();
    double.answer('input', tokens.viewer);
    await runCommand('kanban.setApiToken');
    await request(panel, 'PATCH', '/tasks/none/move', { status: 'done', position: 0 });
    double.answer('input', 'tok-not-known-to-the-provider');
    await runCommand('kanban.setApiToken');
    await request(panel, 'GET', '/tasks');
    double.answer('input', tokens.editor);
    await runCommand('kanban.setApiToken');
    await runCommand('kanban.clearApiToken');
    const lines = outputLines();
    assert.ok(
      lines.some((l) => /API token stored/.test(l)),
      'the channel does report token changes',
    );
    const shown = [...lines, ...double.messages.map((m) => m.text)].join('\n');
    for (const token of [tokens.viewer, tokens.editor, 'tok-not-known-to-the-provider'])
      assert.ok(!shown.includes(token), 'a token was written out');
    assert.ok(
      double.messages.some((m) => /refused/.test(m.text)),
      'the unknown token was reported as refused',
    );
  });
});
