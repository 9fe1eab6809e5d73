import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { listFiles, type TestServer } from '../helpers/testServer';
import { findSecrets, makeTokens, send, startAuthServer, stopAuthServer } from './helpers/authWorkspace';

describe('Auth: card state belongs to the authenticated subject', () => {
  const tokens = makeTokens();
  let server: TestServer;

  /** The card's {open, unread} as this token's subject sees it, from the single read and the list. */
  async function stateFor(token: string, cardId: string): Promise<{ open: boolean; unread: boolean }> {
    const single = await send(server, 'GET', `/api/tasks/${cardId}`, { token });
    assert.equal(single.status, 200, single.text);
    const list = await send(server, 'GET', '/api/tasks', { token });
    const listed = list.body.data.find((t: { id: string }) => t.id === cardId);
    assert.deepEqual(listed.cardState, single.body.data.cardState, 'the list and the single read disagree');
    return single.body.data.cardState;
  }

  async function createCard(title: string): Promise<string> {
    const created = await send(server, 'POST', '/api/tasks', { token: tokens.admin, body: { content: `# ${title}` } });
    assert.equal(created.status, 201, created.text);
    return created.body.data.id;
  }

  beforeEach(async () => {
    server = await startAuthServer(tokens);
  });
  afterEach(() => stopAuthServer(server));

  it("when the editor opens a card, then the result names the editor's subject and only the editor sees it open", async () => {
    const id = await createCard('Shared card');
    const opened = await send(server, 'POST', `/api/tasks/${id}/open`, { token: tokens.editor });
    assert.equal(opened.status, 200, opened.text);
    assert.equal(opened.body.data.actor, 'eddie');
    assert.equal((await stateFor(tokens.editor, id)).open, true);
    assert.equal((await stateFor(tokens.admin, id)).open, false);
    assert.equal((await stateFor(tokens.viewer, id)).open, false);
  });

  it('when the admin changes a card, then it is unread for the editor and not for the admin, until the editor reads it', async () => {
    const id = await createCard('Watched card');
    assert.equal((await send(server, 'POST', `/api/tasks/${id}/open`, { token: tokens.editor })).status, 200);
    assert.equal(
      (await send(server, 'PUT', `/api/tasks/${id}`, { token: tokens.admin, body: { priority: 'high' } })).status,
      200,
    );
    assert.deepEqual(await stateFor(tokens.editor, id), { open: true, unread: true });
    assert.deepEqual(await stateFor(tokens.admin, id), { open: false, unread: false });

    const read = await send(server, 'POST', `/api/tasks/${id}/read`, { token: tokens.editor, body: {} });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(await stateFor(tokens.editor, id), { open: true, unread: false });
    // The editor's read cursor is the editor's alone: the viewer still has the admin's change unread.
    assert.equal((await stateFor(tokens.viewer, id)).unread, true);
  });

  it('when two subjects open different cards and the server restarts, then each still sees only their own cards open', async () => {
    const mine = await createCard('Eddie card');
    const theirs = await createCard('Ada card');
    assert.equal((await send(server, 'POST', `/api/tasks/${mine}/open`, { token: tokens.editor })).status, 200);
    assert.equal((await send(server, 'POST', `/api/tasks/${theirs}/open`, { token: tokens.admin })).status, 200);
    await server.restart();
    assert.deepEqual(
      [(await stateFor(tokens.editor, mine)).open, (await stateFor(tokens.editor, theirs)).open],
      [true, false],
    );
    assert.deepEqual(
      [(await stateFor(tokens.admin, mine)).open, (await stateFor(tokens.admin, theirs)).open],
      [false, true],
    );
  });

  it('when card state is stored, then the files under .kanban hold the subjects and never a token', async () => {
    const id = await createCard('Stored state');
    await send(server, 'POST', `/api/tasks/${id}/open`, { token: tokens.editor });
    await send(server, 'POST', `/api/tasks/${id}/read`, { token: tokens.admin, body: {} });
    const kanban = path.join(server.root, '.kanban');
    const files = await listFiles(kanban);
    const texts = await Promise.all(
      files.map(async (file) => ({ label: file, text: await fs.readFile(path.join(kanban, file), 'utf8') })),
    );
    const stateText = texts
      .filter((t) => t.label.startsWith('.state'))
      .map((t) => t.text)
      .join('\n');
    assert.match(stateText, /eddie/);
    assert.match(stateText, /ada/);
    assert.deepEqual(findSecrets(texts, [tokens.viewer, tokens.editor, tokens.admin]), []);
  });

  it('when GET /card-state/status is asked by a subject, then it names that subject as the actor and says identity is required', async () => {
    const status = await send(server, 'GET', '/api/card-state/status', { token: tokens.editor });
    assert.equal(status.status, 200);
    assert.equal(status.body.data.actor, 'eddie');
    assert.deepEqual(
      {
        provider: status.body.data.identity.provider,
        required: status.body.data.identity.required,
        available: status.body.data.identity.available,
      },
      { provider: 'token', required: true, available: true },
    );
  });

  it("when the viewer tries to open or read a card, then 403 and the viewer's state is unchanged", async () => {
    const id = await createCard('Look only');
    const open = await send(server, 'POST', `/api/tasks/${id}/open`, { token: tokens.viewer });
    assert.equal(open.status, 403);
    assert.match(open.body.error, /viewer.*editor/);
    assert.equal((await send(server, 'POST', `/api/tasks/${id}/read`, { token: tokens.viewer, body: {} })).status, 403);
    assert.equal((await stateFor(tokens.viewer, id)).open, false);
  });
});
