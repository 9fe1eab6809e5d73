import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { contentDisposition } from '../../server/api/sendFile';
import { listFiles, type TestServer } from '../helpers/testServer';
import { createTask, exists, failsWith, okData } from '../helpers/envelope';
import { eventsDuring, startServerWithOpsBoard } from '../helpers/serverHooks';
import { attachmentDir, download, file, PNG } from '../helpers/attachments';

// Uploads and downloads on both boards, and what a download says of its file. Refused uploads and
// names are in attachmentBadUploads.test.ts; concurrency, the card's life cycle and storage
// providers in attachmentStorage.test.ts.

const EVERY_BYTE = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));

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
});
