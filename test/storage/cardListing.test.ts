import { strict as assert } from 'node:assert';
import { promises as fs, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listCardFilesOffThread, stampAt } from '../../server/storage/markdown/cardListing';
import { listCardFiles } from '../../server/storage/markdown/cardFolders';

/** A pid no process has: a temp file named with it was left by a crash. */
const GONE_PID = 2 ** 22 + 17;

describe('card files listed on another thread', () => {
  let boards: string;

  beforeEach(async () => {
    boards = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'kanban-listing-')), '.kanban', 'boards');
    const files: Record<string, string> = {
      'default/todo/a-card.md': '# A\n',
      'default/todo/b-card.md': '# B, a longer one\n',
      'default/done/c-card.md': '# C\n',
      'default/archived/d-card.md': '# D\n',
      'other/backlog/e-card.md': '# E\n',
      'default/todo/notes.txt': 'not a card',
      'default/attachments/a-card/picture.md': 'an attachment named .md',
      'default/logs/a-card.md': 'a log',
      'default/.hidden/f-card.md': '# hidden folder',
      [`default/todo/.g-card.md.tmp-${GONE_PID}-0badc0de-1`]: 'left by a crash',
      // The parent process is alive: its temp file is a write in progress.
      [`default/todo/.h-card.md.tmp-${process.ppid}-0badc0de-2`]: 'being written',
    };
    for (const [file, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(boards, file)), { recursive: true });
      await fs.writeFile(path.join(boards, file), text);
    }
  });

  afterEach(() => fs.rm(path.dirname(path.dirname(boards)), { recursive: true, force: true }));

  it('when the boards folder is listed, then it finds the card files listCardFiles finds, each with its size and mtime', async () => {
    const listed = await listCardFilesOffThread(boards, true);
    const names = listed.files.map((file) => path.relative(boards, file).split(path.sep).join('/')).sort();
    assert.deepEqual(names, [
      'default/archived/d-card.md',
      'default/done/c-card.md',
      'default/todo/a-card.md',
      'default/todo/b-card.md',
      'other/backlog/e-card.md',
    ]);
    assert.deepEqual([...listed.files].sort(), [...(await listCardFiles(boards))].sort());
    listed.files.forEach((file, n) => {
      const stat = statSync(file);
      assert.deepEqual(stampAt(listed.stamps!, n), { size: stat.size, mtimeMs: stat.mtimeMs }, file);
    });
  });

  it('when no stamps are asked for, then only the files come back', async () => {
    const listed = await listCardFilesOffThread(boards, false);
    assert.equal(listed.files.length, 5);
    assert.equal(listed.stamps, null);
  });

  it('when a crashed process left a temp file, then the listing removes it and keeps a live writer’s', async () => {
    await listCardFilesOffThread(boards, true);
    const left = (await fs.readdir(path.join(boards, 'default', 'todo'))).filter((name) => name.includes('.tmp-'));
    assert.equal(left.length, 1);
    assert.match(left[0], new RegExp(`tmp-${process.ppid}-`));
  });

  it('when the boards folder does not exist, then the listing is empty', async () => {
    const listed = await listCardFilesOffThread(path.join(boards, 'missing'), true);
    assert.deepEqual(listed.files, []);
    assert.equal(listed.stamps?.length, 0);
  });
});
