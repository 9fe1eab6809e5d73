import { activateWith, deactivate, folderWithCards, openReadyBoard, runCommand, waitFor } from './helpers/harness';
import { strict as assert } from 'node:assert';
import { double, Uri } from './helpers/vscodeDouble';

const EXTENSION_ID = 'repo-kanban.kanban-board-service';

describe('extension: vscode:// card links', () => {
  afterEach(async () => {
    await deactivate();
  });

  async function cardId(panel: Awaited<ReturnType<typeof openReadyBoard>>): Promise<string> {
    panel.webview.send({ type: 'request', id: 1, method: 'GET', path: '/boards/default/tasks' });
    const answer = await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'response' && m.id === 1),
      'the card list',
    );
    return (answer as { body: { data: { id: string }[] } }).body.data[0].id;
  }

  it('when a vscode:// link to a card is opened, then the board panel opens and is told to show that card', async () => {
    const folder = await folderWithCards(['Linked card']);
    activateWith([folder]);
    assert.ok(double.uriHandler, 'the extension registers a URI handler');
    await double.uriHandler.handleUri(
      Uri.parse(`vscode://${EXTENSION_ID}/open?board=default&card=linked-card-2026-01-01`),
    );
    const panel = await waitFor(() => double.panels.at(-1), 'a board panel');
    panel.webview.send({ type: 'ready' });
    await waitFor(() => panel.webview.posted.find((m) => m.type === 'openTask'), 'the openTask command');
    assert.deepEqual(
      panel.webview.posted.find((m) => m.type === 'openTask'),
      { type: 'openTask', boardId: 'default', taskId: 'linked-card-2026-01-01' },
    );
  });

  it('when a vscode:// link has no board, then an error says what a link looks like and no panel opens', async () => {
    activateWith([await folderWithCards(['Any'])]);
    await double.uriHandler!.handleUri(Uri.parse(`vscode://${EXTENSION_ID}/elsewhere`));
    assert.equal(double.panels.length, 0);
    assert.match(
      JSON.stringify(double.messages),
      /a board link looks like vscode:\/\/repo-kanban\.kanban-board-service\/open\?board=<id>&card=<id>/,
    );
  });

  it('when the card menu asks for a card link, then the clipboard holds the vscode:// link that opens it', async () => {
    activateWith([await folderWithCards(['Share me'])]);
    const panel = await openReadyBoard();
    const id = await cardId(panel);
    panel.webview.send({ type: 'copyCardLink', boardId: 'default', taskId: id });
    await waitFor(() => double.clipboard, 'the clipboard');
    assert.equal(double.clipboard, `vscode://${EXTENSION_ID}/open?board=default&card=${id}`);
  });

  it("when Kanban: Copy Card Link runs with no card open, then the picked card's vscode:// link is copied", async () => {
    activateWith([await folderWithCards(['Pick me'])]);
    double.answer('quickPick', (o: { items: { label: string }[] }) => o.items.find((i) => i.label === 'Pick me'));
    await runCommand('kanban.copyCardLink');
    assert.match(
      double.clipboard,
      new RegExp(
        `^vscode://${EXTENSION_ID.replace(/\./g, '\\.')}/open\\?board=default&card=pick-me-\\d{4}-\\d{2}-\\d{2}-[a-z0-9]{4}$`,
      ),
    );
  });
});
