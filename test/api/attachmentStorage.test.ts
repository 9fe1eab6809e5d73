import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { AttachmentPayload, AttachmentStore, CardRef } from '../../server/storage/attachmentStore';
import { LocalFsAttachmentStore } from '../../server/storage/localfs/localFsAttachmentStore';
import { listFiles, type TestServer } from '../helpers/testServer';
import { createTask, exists, failsWith, okData } from '../helpers/envelope';
import { eventsDuring, startServerWithOpsBoard } from '../helpers/serverHooks';
import { attachmentDir, download, file, PNG } from '../helpers/attachments';

// Attachments under load and through the card's life (moves, transfers, deletion), and on a storage
// provider that fails or cannot hand out a file.

/** An attachment provider that keeps bytes in memory and can neither expose a file nor stream one. */
class OpaqueAttachmentStore implements AttachmentStore {
  readonly provider = 'opaque-test-provider';
  readonly files = new Map<string, Buffer>();
  private key(card: CardRef, name: string) {
    return `${card.boardId}/${card.id}/${name}`;
  }
  async put(card: CardRef, name: string, data: Buffer) {
    this.files.set(this.key(card, name), data);
  }
  async get(card: CardRef, name: string): Promise<AttachmentPayload | null> {
    const data = this.files.get(this.key(card, name));
    return data ? { size: data.length } : null;
  }
  async remove(card: CardRef, name: string) {
    this.files.delete(this.key(card, name));
  }
  async removeAll(card: CardRef) {
    for (const key of [...this.files.keys()]) if (key.startsWith(`${card.boardId}/${card.id}/`)) this.files.delete(key);
  }
  async move() {}
  async close() {}
}

/** The local provider on a disk that fails while writing one particular file. */
class DiskFailsOnOneFile extends LocalFsAttachmentStore {
  constructor(
    kanbanDir: string,
    private readonly failing: string,
  ) {
    super(kanbanDir);
  }
  override async put(card: CardRef, filename: string, data: Buffer, contentType?: string): Promise<void> {
    if (filename === this.failing) throw new Error('ENOSPC: no space left on device (simulated)');
    return super.put(card, filename, data, contentType);
  }
}

describe('API attachments', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServerWithOpsBoard();
  });
  afterEach(async () => {
    await server.close();
  });

  describe('concurrency and card life cycle', () => {
    it('when many uploads to one card and another run at the same time, then every file and every reference is kept', async () => {
      const one = await createTask(server, 'Busy one');
      const two = await createTask(server, 'Busy two');
      const payloads = new Map<string, Buffer>();
      const requests = [];
      for (let i = 0; i < 12; i++) {
        const target = i % 3 === 0 ? two : one;
        const name = `file-${i}.bin`;
        const bytes = randomBytes(50_000 + i);
        payloads.set(`${target.id}/${name}`, bytes);
        requests.push(server.api('POST', `/api/tasks/${target.id}/attachments`, { files: [file(name, bytes)] }));
      }
      for (const answer of await Promise.all(requests)) okData(answer);
      for (const task of [one, two]) {
        const expected = [...payloads.keys()]
          .filter((k) => k.startsWith(`${task.id}/`))
          .map((k) => k.slice(task.id.length + 1));
        const stored = okData(await server.api('GET', `/api/tasks/${task.id}`)).attachments;
        assert.deepEqual([...stored].sort(), [...expected].sort());
        for (const name of expected) {
          assert.ok(
            (await download(server, `/api/tasks/${task.id}/attachments/${name}`)).bytes.equals(
              payloads.get(`${task.id}/${name}`) as Buffer,
            ),
            name,
          );
        }
      }
    });

    it('when the same file name is uploaded concurrently with different contents, then one whole version wins and it is listed once', async () => {
      const task = await createTask(server, 'Contested');
      const versions = [randomBytes(200_000), randomBytes(200_000), randomBytes(200_000)];
      const answers = await Promise.all(
        versions.map((bytes) =>
          server.api('POST', `/api/tasks/${task.id}/attachments`, { files: [file('same.bin', bytes)] }),
        ),
      );
      for (const answer of answers) okData(answer);
      assert.deepEqual(okData(await server.api('GET', `/api/tasks/${task.id}`)).attachments, ['same.bin']);
      const got = (await download(server, '/api/tasks/' + task.id + '/attachments/same.bin')).bytes;
      assert.ok(
        versions.some((v) => v.equals(got)),
        'the stored file is a mix of uploads',
      );
    });

    it('when a card with files moves to another column or is transferred to another board, then its files follow', async () => {
      const task = await createTask(server, 'Traveller');
      okData(await server.api('POST', `/api/tasks/${task.id}/attachments`, { files: [file('pixel.png', PNG)] }));
      okData(await server.api('PATCH', `/api/tasks/${task.id}/move`, { status: 'done' }));
      assert.ok((await download(server, `/api/tasks/${task.id}/attachments/pixel.png`)).bytes.equals(PNG));
      okData(await server.api('POST', `/api/boards/ops/tasks/${task.id}/transfer`, {}));
      assert.ok((await download(server, `/api/boards/ops/tasks/${task.id}/attachments/pixel.png`)).bytes.equals(PNG));
      assert.equal(await exists(attachmentDir(server, 'default', task.id)), false);
    });

    it('when two cards hold files of the same name, then each keeps its own bytes', async () => {
      const one = await createTask(server, 'First holder');
      const two = await createTask(server, 'Second holder');
      okData(
        await server.api('POST', `/api/tasks/${one.id}/attachments`, { files: [file('same.txt', Buffer.from('one'))] }),
      );
      okData(
        await server.api('POST', `/api/tasks/${two.id}/attachments`, { files: [file('same.txt', Buffer.from('two'))] }),
      );
      assert.equal((await download(server, `/api/tasks/${one.id}/attachments/same.txt`)).bytes.toString(), 'one');
      assert.equal((await download(server, `/api/tasks/${two.id}/attachments/same.txt`)).bytes.toString(), 'two');
    });

    it('when a card is deleted for good, then its attachment folder is removed', async () => {
      const task = await createTask(server, 'Gone');
      okData(
        await server.api('POST', `/api/tasks/${task.id}/attachments`, { files: [file('a.txt', Buffer.from('a'))] }),
      );
      okData(await server.api('DELETE', `/api/tasks/${task.id}/permanent`));
      assert.equal(await exists(attachmentDir(server, 'default', task.id)), false);
    });
  });

  describe('a storage failure in the middle of an upload', () => {
    it('when the third of several files cannot be written, then the request fails, no new file is kept, a replaced file gets its old bytes back and no event is emitted', async () => {
      const task = await createTask(server, 'Unlucky');
      okData(
        await server.api('POST', `/api/tasks/${task.id}/attachments`, {
          files: [file('existing.txt', Buffer.from('old'), 'text/markdown')],
        }),
      );
      server.running.workspace.attachments = new DiskFailsOnOneFile(path.join(server.root, '.kanban'), 'fails.bin');
      const events = await eventsDuring(server, async () => {
        const answer = await server.api('POST', `/api/tasks/${task.id}/attachments`, {
          files: [
            file('existing.txt', Buffer.from('new'), 'text/plain'),
            file('fresh.txt', Buffer.from('fresh')),
            file('fails.bin', Buffer.from('x')),
          ],
        });
        assert.equal(answer.status, 500, JSON.stringify(answer.body));
        assert.equal(answer.body?.ok, false);
      });
      assert.deepEqual(events, []);
      assert.deepEqual(okData(await server.api('GET', `/api/tasks/${task.id}`)).attachments, ['existing.txt']);
      assert.deepEqual(await listFiles(attachmentDir(server, 'default', task.id)), [
        '.content-types.json',
        'existing.txt',
      ]);
      const kept = await download(server, `/api/tasks/${task.id}/attachments/existing.txt`);
      assert.equal(kept.bytes.toString(), 'old');
      assert.equal(kept.headers.get('content-type'), 'text/markdown');
    });
  });

  describe('a provider that exposes no local file and cannot stream', () => {
    it('when a file stored there is downloaded, then 501 with the envelope naming the provider; upload and delete still work', async () => {
      const store = new OpaqueAttachmentStore();
      server.running.workspace.attachments = store;
      const task = await createTask(server, 'Opaque');
      okData(await server.api('POST', `/api/tasks/${task.id}/attachments`, { files: [file('pixel.png', PNG)] }));
      assert.ok(
        store.files.get(`default/${task.id}/pixel.png`)?.equals(PNG),
        'the upload went through the active provider',
      );
      failsWith(await server.api('GET', `/api/tasks/${task.id}/attachments/pixel.png`), 501, /opaque-test-provider/);
      failsWith(await server.api('GET', `/api/tasks/${task.id}/attachments/pixel.png?download=1`), 501);
      assert.deepEqual(
        okData(await server.api('DELETE', `/api/tasks/${task.id}/attachments/pixel.png`)).attachments,
        [],
      );
      assert.equal(store.files.size, 0, 'the delete removed the payload from the provider');
    });
  });
});
