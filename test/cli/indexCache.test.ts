import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../helpers/testServer';
import { expectCode, jsonOf, kanban } from './helpers';
import { changeCardFilesByHand } from './handEdits';
import { readIndexCache } from '../../server/storage/markdown/indexCache';

/**
 * A `kanban` command leaves the card index in `.kanban/.state/` for the next one (so the next call
 * takes unchanged cards from it rather than parsing every file), and the files stay the truth:
 * whatever changes by hand between two calls is what the next call answers.
 */
describe('kanban commands and the card index', function () {
  this.timeout(60_000);
  let dir: string;
  const stateDir = () => path.join(dir, '.kanban', '.state');
  const list = async () =>
    jsonOf(await kanban(['list', '--json', '--dir', dir])) as { id: string; title: string; status: string }[];
  const add = async (title: string, status = 'todo') =>
    jsonOf(await kanban(['add', title, '--status', status, '--json', '--dir', dir])) as {
      id: string;
      filePath: string;
    };

  beforeEach(async () => {
    dir = await makeTempDir('kanban-cli-index-');
  });

  it('when a command reads the board, then it leaves the card index and no temporary file behind', async () => {
    await add('First');
    await add('Second');
    await list();
    const files = await fs.readdir(stateDir());
    assert.ok(files.includes('card-index.json'), files.join(', '));
    assert.deepEqual(
      files.filter((f) => f.includes('.tmp')),
      [],
      'no half-written file is left',
    );
    assert.deepEqual([...readIndexCache(stateDir()).values()].map((f) => f.card.content.trim()).sort(), [
      '# First',
      '# Second',
    ]);
  });

  it('when cards are edited, moved, deleted and added by hand between calls, then the next call answers what the files say', async () => {
    const edited = await add('Edited by hand');
    const moved = await add('Moved by hand');
    const deleted = await add('Deleted by hand');
    await list(); // the index now holds all three
    const checkListed = await changeCardFilesByHand(dir, { edited, moved, deleted });
    checkListed(await list());
  });

  it('when two commands write at once, then both cards are there and the next calls agree', async () => {
    await add('Before');
    await list();
    const [a, b] = await Promise.all([
      kanban(['add', 'From A', '--dir', dir]),
      kanban(['add', 'From B', '--dir', dir]),
    ]);
    expectCode(a, 0);
    expectCode(b, 0);
    for (let call = 0; call < 2; call++)
      assert.deepEqual((await list()).map((c) => c.title).sort(), ['Before', 'From A', 'From B']);
  });
});
