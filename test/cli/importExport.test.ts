import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { addDays, utcDay } from '../../server/core/dueDates';
import { describeInBothModes, expectCode, jsonOf, kanban, restData } from './helpers';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'import');

/** `kanban import`, `kanban export` and `kanban list --due`, run as the built binary in both modes. */
describeInBothModes(
  'kanban import, export and due filters',
  (cli) => {
    const { k } = cli;
    const titles = async (board = 'default') =>
      (await restData(cli.mode, `/api/boards/${board}/tasks`)).map((t: any) => t.title).sort();

    it('when a GitHub export is imported without --apply, then it prints what it would create and writes nothing', async () => {
      const run = expectCode(await k('import', path.join(FIXTURES, 'github.json'), '--source', 'acme/web'), 0);
      assert.match(run.stdout, /Dry run: would create 3 card\(s\) on board default/);
      assert.match(run.stdout, /\+ Fix login timeout on slow networks/);
      assert.match(run.stdout, /--apply/);
      assert.deepEqual(await titles(), []);
    });

    it('when it is imported with --apply, then the cards exist; when run again, then nothing is duplicated', async () => {
      const file = path.join(FIXTURES, 'github.json');
      const applied = expectCode(
        await kanban(['import', file, '--source', 'acme/web', '--apply', ...cli.mode.args], {
          env: { KANBAN_PROGRESS: 'always' },
        }),
        0,
      );
      assert.match(applied.stdout, /Created 3 card\(s\)/);
      // In-process the service reports each card, drawn as a bar; through a server, a timer.
      if (cli.inProcess) assert.match(applied.stderr, /creating cards \[#{24}\] 100% 3\/3/);
      assert.match(applied.stderr, /kanban: done after [\d.]+ s/);
      const again = expectCode(await k('import', file, '--source', 'acme/web', '--apply'), 0).stdout;
      assert.match(again, /Created 0 card\(s\)/);
      assert.match(again, /3 already imported, skipped/);
      assert.deepEqual(await titles(), [
        'Add a dark theme',
        'Document the webhook retries',
        'Fix login timeout on slow networks',
      ]);
    });

    it('when a Trello export, a CSV and a kanban-lite folder are imported to --board ops, then the format is told from the file and a re-run adds nothing', async () => {
      for (const source of ['trello.json', 'cards.csv', 'kanban-lite']) {
        const result = jsonOf(
          expectCode(await k('import', path.join(FIXTURES, source), '--board', 'ops', '--apply', '--json'), 0),
        );
        assert.equal(result.created, 3, source);
        assert.equal(
          jsonOf(await k('import', path.join(FIXTURES, source), '--board', 'ops', '--apply', '--json')).created,
          0,
          source,
        );
      }
      assert.equal((await titles('ops')).length, 9);
      assert.deepEqual(
        await titles(),
        ['Add a dark theme', 'Document the webhook retries', 'Fix login timeout on slow networks'],
        'the default board is untouched',
      );
    });

    it('when a file format cannot be told, then the command says to add --format', async () => {
      const file = path.join(cli.mode.root, 'notes.txt');
      await fs.writeFile(file, 'just text');
      const run = await k('import', file);
      assert.notEqual(run.code, 0);
      assert.match(run.stderr, /add --format github\|trello\|csv\|kanban-lite/);
    });

    it('when a board is exported as CSV and imported into another board, then the cards are the same', async () => {
      const out = path.join(cli.mode.root, 'ops.csv');
      expectCode(await k('export', 'csv', '--board', 'ops', '--out', out), 0);
      const printed = expectCode(await k('export', 'csv', '--board', 'ops'), 0).stdout;
      assert.equal(printed, await fs.readFile(out, 'utf8'));
      assert.equal((await cli.mode.rest('POST', '/api/boards', { id: 'copy', name: 'Copy' })).status, 201);
      expectCode(await k('import', out, '--board', 'copy', '--apply'), 0);
      assert.deepEqual(await titles('copy'), await titles('ops'));
      assert.equal(JSON.parse(expectCode(await k('export', 'json', '--board', 'copy'), 0).stdout).cards.length, 9);
    });

    it('when list runs with --due overdue or --due-before, then only those cards are listed', async () => {
      const today = utcDay();
      expectCode(await k('add', 'Late report', '--due', addDays(today, -1)), 0);
      expectCode(await k('add', 'Late but done', '--due', addDays(today, -1), '--status', 'done'), 0);
      const overdue = jsonOf(await k('list', '--due', 'overdue', '--json')).map((t: any) => t.title);
      assert.deepEqual(overdue, ['Late report']);
      const before = jsonOf(await k('list', '--due-before', today, '--json'))
        .map((t: any) => t.title)
        .sort();
      assert.deepEqual(before, ['Late but done', 'Late report']);
      const bad = await k('list', '--due', 'soon');
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /"due" must be one of overdue, today, week, none/);
    });
  },
  async (mode) => {
    assert.equal((await mode.rest('POST', '/api/boards', { id: 'ops', name: 'Ops' })).status, 201);
  },
);
