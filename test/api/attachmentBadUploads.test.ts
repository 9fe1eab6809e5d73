import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { listFiles, type TestServer } from '../helpers/testServer';
import { asApiAnswer, cardFile, createTask, failsWith, okData, rawRequest } from '../helpers/envelope';
import { startServerWithOpsBoard } from '../helpers/serverHooks';
import { attachmentDir, download, file } from '../helpers/attachments';

// Uploads and paths the service refuses: malformed bodies, unsafe file names, names that climb out
// of the card's folder.

describe('API attachments', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServerWithOpsBoard();
  });
  afterEach(async () => {
    await server.close();
  });

  describe('bad uploads', () => {
    let task: any;
    beforeEach(async () => {
      task = await createTask(server, 'Target');
      okData(
        await server.api('POST', `/api/tasks/${task.id}/attachments`, {
          files: [file('existing.txt', Buffer.from('old'))],
        }),
      );
    });

    async function assertNothingChanged() {
      assert.deepEqual(okData(await server.api('GET', `/api/tasks/${task.id}`)).attachments, ['existing.txt']);
      assert.deepEqual(await listFiles(attachmentDir(server, 'default', task.id)), ['existing.txt']);
      assert.equal((await download(server, `/api/tasks/${task.id}/attachments/existing.txt`)).bytes.toString(), 'old');
    }

    const good = file('good.txt', Buffer.from('fine'));
    const malformed: [string, unknown, RegExp][] = [
      ['files is missing', {}, /files/],
      ['files is not an array', { files: 'a.txt' }, /files/],
      ['files is empty', { files: [] }, /files/],
      ['a file has no data', { files: [good, { name: 'x.txt' }] }, /data/],
      ['a file has no name', { files: [good, { data: 'eA==' }] }, /name/],
      ['data is not a string', { files: [good, { name: 'x.txt', data: [1, 2] }] }, /data/],
      ['a file object has an unknown field', { files: [good, { name: 'x.txt', data: 'eA==', path: '/etc' }] }, /path/],
      ['data is not base64', { files: [good, { name: 'x.txt', data: 'not base64!' }] }, /base64/],
      ['base64 padding is wrong', { files: [good, { name: 'x.txt', data: 'eA=' }] }, /base64/],
      [
        'the contentType is not a MIME type',
        { files: [good, { name: 'x.txt', data: 'eA==', contentType: 'text/html\r\nX-Evil: 1' }] },
        /contentType/,
      ],
      ['two files share a name', { files: [good, good] }, /twice/],
    ];
    for (const [what, body, message] of malformed) {
      it(`when ${what}, then 400 naming the problem and no file of the request is stored`, async () => {
        failsWith(await server.api('POST', `/api/tasks/${task.id}/attachments`, body), 400, message);
        await assertNothingChanged();
      });
    }

    const unsafeNames = [
      '../escape.txt',
      '..',
      'a/b.txt',
      'a\\b.txt',
      '.hidden',
      '.content-types.json',
      'nul\u0000.txt',
      'line\nbreak.txt',
      '',
      '   ',
      'x'.repeat(256),
      'a"b.txt',
      'con:colon',
    ];
    for (const name of unsafeNames) {
      it(`when the file name is ${JSON.stringify(name.length > 40 ? `${name.slice(0, 10)}... (${name.length} chars)` : name)}, then 400 and nothing is stored anywhere`, async () => {
        // Runtime state (card-state saves in flight, and the .kanban/.gitignore written with the
        // state folder the first time) is not what an upload stores.
        const isRuntimeState = (f: string) => f.startsWith('.kanban/.state/') || /^\.kanban\/\.?\.gitignore/.test(f);
        const stored = async () => (await listFiles(server.root)).filter((f) => !isRuntimeState(f));
        const before = await stored();
        failsWith(
          await server.api('POST', `/api/tasks/${task.id}/attachments`, {
            files: [good, file(name, Buffer.from('evil'))],
          }),
          400,
          /name|files/,
        );
        await assertNothingChanged();
        assert.deepEqual(await stored(), before);
      });
    }

    it('when the JSON body itself is broken, then 400', async () => {
      failsWith(
        await server.raw('POST', `/api/tasks/${task.id}/attachments`, '{"files": [', {
          'content-type': 'application/json',
        }),
        400,
        /JSON/,
      );
      await assertNothingChanged();
    });

    it('when the name in a download or delete path tries to leave the card folder, then 400 and nothing outside is read or removed', async () => {
      const secret = path.join(server.root, '.kanban', 'boards', 'default', 'secret.txt');
      await fs.writeFile(secret, 'top secret');
      for (const name of ['..%2F..%2Fsecret.txt', '..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd', '%2E%2E']) {
        const got = await rawRequest(server, 'GET', `/api/tasks/${task.id}/attachments/${name}`);
        assert.ok(got.status === 400 || got.status === 404, `${name}: ${got.status}`);
        assert.doesNotMatch(got.text, /top secret|root:/);
        failsWith(
          asApiAnswer(await rawRequest(server, 'DELETE', `/api/tasks/${task.id}/attachments/${name}`)),
          got.status,
        );
      }
      assert.equal(await fs.readFile(secret, 'utf8'), 'top secret');
    });

    it('when a hand-edited card lists an attachment name that climbs out of its folder, then the download is refused with 400, not served', async () => {
      const secret = path.join(server.root, '.kanban', 'boards', 'default', 'secret.txt');
      await fs.writeFile(secret, 'top secret');
      const card = cardFile(server, 'default', 'backlog', task.id);
      const text = await fs.readFile(card, 'utf8');
      await fs.writeFile(
        card,
        text.replace('attachments:\n  - existing.txt\n', 'attachments:\n  - existing.txt\n  - ../../secret.txt\n'),
      );
      await server.restart();
      assert.deepEqual(okData(await server.api('GET', `/api/tasks/${task.id}`)).attachments, [
        'existing.txt',
        '../../secret.txt',
      ]);
      const got = await rawRequest(server, 'GET', `/api/tasks/${task.id}/attachments/..%2F..%2Fsecret.txt`);
      failsWith(asApiAnswer(got), 400, /name/);
      assert.doesNotMatch(got.text, /top secret/);
      failsWith(
        asApiAnswer(await rawRequest(server, 'DELETE', `/api/tasks/${task.id}/attachments/..%2F..%2Fsecret.txt`)),
        400,
      );
      assert.equal(await fs.readFile(secret, 'utf8'), 'top secret');
    });
  });
});
