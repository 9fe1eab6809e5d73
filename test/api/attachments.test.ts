import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { AttachmentPayload, AttachmentStore, CardRef } from '../../server/storage/attachmentStore';
import { contentDisposition } from '../../server/api/sendFile';
import { LocalFsAttachmentStore } from '../../server/storage/localfs/localFsAttachmentStore';
import { listFiles, type TestServer } from '../helpers/testServer';
import { asApiAnswer, cardFile, createTask, exists, failsWith, okData, rawRequest } from '../helpers/envelope';
import { eventsDuring, startServerWithOpsBoard } from '../helpers/serverHooks';

/** A 1x1 PNG: its signature alone holds 0x89, CR LF, 0x1A and LF, which text handling would break. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const EVERY_BYTE = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));

function attachmentDir(server: TestServer, boardId: string, cardId: string): string {
  return path.join(server.root, '.kanban', 'boards', boardId, 'attachments', cardId);
}

function file(name: string, bytes: Buffer, contentType?: string) {
  return { name, data: bytes.toString('base64'), ...(contentType ? { contentType } : {}) };
}

interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

async function download(server: TestServer, urlPath: string): Promise<Download> {
  const response = await fetch(server.url + urlPath);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The file name a browser takes from a Content-Disposition header: the RFC 5987 form when present. */
function dispositionName(header: string): string {
  const extended = /filename\*=UTF-8''([^;\s]+)/.exec(header);
  assert.ok(extended, `no filename* in ${header}`);
  assert.match(
    extended[1],
    /^[A-Za-z0-9!#$&+\-.^_`|~%]+$/,
    `filename* holds characters RFC 5987 does not allow: ${extended[1]}`,
  );
  return decodeURIComponent(extended[1]);
}

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

  for (const board of [undefined, 'ops']) {
    const boardId = board ?? 'default';
    const base = board ? `/api/boards/${board}/tasks` : '/api/tasks';

    describe(board ? `on board "${board}"` : 'on the default board', () => {
      let task: any;
      beforeEach(async () => {
        task = await createTask(server, 'With files', board);
      });

      it('when files are uploaded, then 200 with the updated task, one folder per card on disk, and one attachment.added event', async () => {
        let answer: any;
        const events = await eventsDuring(server, async () => {
          answer = await server.api('POST', `${base}/${task.id}/attachments`, {
            files: [file('pixel.png', PNG), file('notes.txt', Buffer.from('hello\n'))],
          });
        });
        const updated = okData(answer);
        assert.equal(updated.id, task.id);
        assert.deepEqual(updated.attachments, ['pixel.png', 'notes.txt']);
        assert.deepEqual(await listFiles(attachmentDir(server, boardId, task.id)), ['notes.txt', 'pixel.png']);
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}`)).attachments, ['pixel.png', 'notes.txt']);
        assert.deepEqual(
          events.map((e) => e.event),
          ['attachment.added'],
        );
        assert.deepEqual(events[0].data.files, ['pixel.png', 'notes.txt']);
        assert.deepEqual(events[0].card?.attachments, ['pixel.png', 'notes.txt']);
        assert.equal(events[0].boardId, boardId);
      });

      it('when binary files are uploaded (PNG, every byte value, zero bytes, 5 MB), then each downloads byte for byte identical', async () => {
        const big = randomBytes(5 * 1024 * 1024);
        const files = { 'pixel.png': PNG, 'bytes.bin': EVERY_BYTE, 'empty.dat': Buffer.alloc(0), 'big.bin': big };
        okData(
          await server.api('POST', `${base}/${task.id}/attachments`, {
            files: Object.entries(files).map(([n, b]) => file(n, b)),
          }),
        );
        for (const [name, bytes] of Object.entries(files)) {
          const got = await download(server, `${base}/${task.id}/attachments/${name}`);
          assert.equal(got.status, 200, name);
          assert.equal(got.bytes.length, bytes.length, name);
          assert.ok(got.bytes.equals(bytes), `${name} differs after the round trip`);
          assert.ok(
            (await fs.readFile(path.join(attachmentDir(server, boardId, task.id), name))).equals(bytes),
            `${name} differs on disk`,
          );
        }
      });

      it('when a PNG is downloaded, then Content-Type is image/png and it is shown inline unless download=1', async () => {
        okData(await server.api('POST', `${base}/${task.id}/attachments`, { files: [file('pixel.png', PNG)] }));
        const inline = await download(server, `${base}/${task.id}/attachments/pixel.png`);
        assert.equal(inline.headers.get('content-type'), 'image/png');
        assert.match(inline.headers.get('content-disposition') ?? '', /^inline; filename="pixel.png"/);
        assert.equal(inline.headers.get('x-content-type-options'), 'nosniff');
        const explicitInline = await download(server, `${base}/${task.id}/attachments/pixel.png?download=0`);
        assert.match(explicitInline.headers.get('content-disposition') ?? '', /^inline;/);
        const forced = await download(server, `${base}/${task.id}/attachments/pixel.png?download=1`);
        assert.equal(forced.status, 200);
        assert.match(forced.headers.get('content-disposition') ?? '', /^attachment; filename="pixel.png"/);
        assert.ok(forced.bytes.equals(PNG));
      });

      it('when an attachment is deleted, then 200 with the task, the reference and the payload are gone, and one attachment.removed event', async () => {
        okData(
          await server.api('POST', `${base}/${task.id}/attachments`, {
            files: [file('a.txt', Buffer.from('a')), file('b.txt', Buffer.from('b'))],
          }),
        );
        let answer: any;
        const events = await eventsDuring(server, async () => {
          answer = await server.api('DELETE', `${base}/${task.id}/attachments/a.txt`);
        });
        assert.deepEqual(okData(answer).attachments, ['b.txt']);
        assert.deepEqual(await listFiles(attachmentDir(server, boardId, task.id)), ['b.txt']);
        assert.equal((await download(server, `${base}/${task.id}/attachments/a.txt`)).status, 404);
        assert.deepEqual(
          events.map((e) => e.event),
          ['attachment.removed'],
        );
        assert.equal(events[0].data.file, 'a.txt');
        assert.deepEqual(events[0].card?.attachments, ['b.txt']);
        okData(await server.api('DELETE', `${base}/${task.id}/attachments/b.txt`));
        assert.equal(
          await exists(attachmentDir(server, boardId, task.id)),
          false,
          'the emptied card folder is removed',
        );
      });

      it('when the card does not exist, then upload, download and delete give 404', async () => {
        failsWith(
          await server.api('POST', `${base}/no-such-card/attachments`, { files: [file('a.txt', Buffer.from('a'))] }),
          404,
          /no-such-card/,
        );
        failsWith(await server.api('GET', `${base}/no-such-card/attachments/a.txt`), 404, /no-such-card/);
        failsWith(await server.api('DELETE', `${base}/no-such-card/attachments/a.txt`), 404, /no-such-card/);
        assert.equal(await exists(path.join(server.root, '.kanban', 'boards', boardId, 'attachments')), false);
      });

      it('when the attachment does not exist, then download and delete give 404 naming it', async () => {
        failsWith(await server.api('GET', `${base}/${task.id}/attachments/missing.png`), 404, /missing\.png/);
        failsWith(await server.api('DELETE', `${base}/${task.id}/attachments/missing.png`), 404, /missing\.png/);
      });
    });
  }

  describe('content types and dispositions', () => {
    let task: any;
    beforeEach(async () => {
      task = await createTask(server, 'Typed files');
    });

    const byExtension: [string, string][] = [
      ['report.pdf', 'application/pdf'],
      ['notes.txt', 'text/plain; charset=utf-8'],
      ['photo.JPG', 'image/jpeg'],
      ['archive.unknownext', 'application/octet-stream'],
      ['no-extension', 'application/octet-stream'],
    ];
    for (const [name, type] of byExtension) {
      it(`when "${name}" is uploaded without a contentType, then it downloads as ${type}`, async () => {
        okData(
          await server.api('POST', `/api/tasks/${task.id}/attachments`, { files: [file(name, Buffer.from('x'))] }),
        );
        assert.equal(
          (await download(server, `/api/tasks/${task.id}/attachments/${name}`)).headers.get('content-type'),
          type,
        );
      });
    }

    it('when a contentType is given at upload, then the download carries it, also after a restart', async () => {
      okData(
        await server.api('POST', `/api/tasks/${task.id}/attachments`, {
          files: [file('data', Buffer.from('%PDF-1.7'), 'application/pdf')],
        }),
      );
      assert.equal(
        (await download(server, `/api/tasks/${task.id}/attachments/data`)).headers.get('content-type'),
        'application/pdf',
      );
      await server.restart();
      assert.equal(
        (await download(server, `/api/tasks/${task.id}/attachments/data`)).headers.get('content-type'),
        'application/pdf',
      );
    });

    it('when a file is uploaded again without a contentType, then the earlier stated type no longer applies', async () => {
      okData(
        await server.api('POST', `/api/tasks/${task.id}/attachments`, {
          files: [file('blob', Buffer.from('1'), 'image/png')],
        }),
      );
      okData(
        await server.api('POST', `/api/tasks/${task.id}/attachments`, { files: [file('blob', Buffer.from('2'))] }),
      );
      const got = await download(server, `/api/tasks/${task.id}/attachments/blob`);
      assert.equal(got.headers.get('content-type'), 'application/octet-stream');
      assert.equal(got.bytes.toString(), '2');
    });

    const activeFiles: [string, string, string | undefined][] = [
      ['page.html', '<script>alert(1)</script>', undefined],
      ['drawing.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', undefined],
      ['page.xhtml', '<html xmlns="http://www.w3.org/1999/xhtml"/>', undefined],
      ['innocent.png', '<script>alert(1)</script>', 'text/html'],
      ['shouty.png', '<script>alert(1)</script>', 'TEXT/HTML'],
      ['script.js', 'alert(1)', 'text/javascript'],
    ];
    for (const [name, body, contentType] of activeFiles) {
      it(`when "${name}"${contentType ? ` (stated ${contentType})` : ''} is downloaded without download=1, then it is still sent as an attachment, never inline`, async () => {
        okData(
          await server.api('POST', `/api/tasks/${task.id}/attachments`, {
            files: [file(name, Buffer.from(body), contentType)],
          }),
        );
        for (const query of ['', '?download=0']) {
          const got = await download(server, `/api/tasks/${task.id}/attachments/${name}${query}`);
          assert.equal(got.status, 200);
          assert.match(got.headers.get('content-disposition') ?? '', /^attachment;/, `${name}${query}`);
          assert.equal(got.headers.get('x-content-type-options'), 'nosniff');
          assert.match(got.headers.get('content-security-policy') ?? '', /sandbox/);
        }
      });
    }

    for (const name of [
      "it's (final) 100%.txt",
      'résumé naïve – 日本.pdf',
      'emoji 🚀 plan;v2,draft.txt',
      "semi;colon=and'quote.txt",
    ]) {
      it(`when the file is named ${JSON.stringify(name)}, then Content-Disposition is ASCII-safe and gives back the exact name`, async () => {
        okData(
          await server.api('POST', `/api/tasks/${task.id}/attachments`, {
            files: [file(name, Buffer.from('content'))],
          }),
        );
        const got = await download(server, `/api/tasks/${task.id}/attachments/${encodeURIComponent(name)}?download=1`);
        assert.equal(got.status, 200);
        const header = got.headers.get('content-disposition') ?? '';
        assert.match(header, /^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''/);
        const fallback = /filename="([^"]*)"/.exec(header)?.[1] ?? '';
        assert.doesNotMatch(fallback, /[%"\\]/, 'the quoted fallback holds no quote, backslash or percent sign');
        assert.equal(dispositionName(header), name);
        assert.equal(got.bytes.toString(), 'content');
      });
    }

    it('when a name holds a double quote or backslash, then the disposition header still quotes it safely', () => {
      // Such names are refused at upload; a provider could still hand one back from older data.
      const header = contentDisposition('attachment', 'a"b\\c%d.txt');
      assert.match(header, /^attachment; filename="a_b_c_d\.txt"; filename\*=UTF-8''/);
      assert.equal(dispositionName(header), 'a"b\\c%d.txt');
    });

    it('when download is neither 0 nor 1, then 400', async () => {
      okData(
        await server.api('POST', `/api/tasks/${task.id}/attachments`, { files: [file('a.txt', Buffer.from('a'))] }),
      );
      failsWith(await server.api('GET', `/api/tasks/${task.id}/attachments/a.txt?download=maybe`), 400, /download/);
    });
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
