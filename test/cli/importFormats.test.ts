import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { describeInBothModes, expectCode, jsonOf, kanban, restData, type ModeSuite } from './helpers';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'import');

/** A card's parent as an import writes it (one place to change once cards have a parent field). */
const parentOf = (card: any): string | undefined => card.parent ?? undefined;

/** Every card of a board, archived ones too, each as its single-card read model (with checklist items). */
async function cardsOf(cli: ModeSuite, board: string): Promise<any[]> {
  const list = await restData(cli.mode, `/api/boards/${board}/tasks?includeArchived=true`);
  return Promise.all(list.map((t: any) => restData(cli.mode, `/api/boards/${board}/tasks/${t.id}`)));
}

const byTitle = (cards: any[]) => new Map(cards.map((c) => [c.title, c]));

const NEW_FORMATS = [
  {
    path: 'backlog-md',
    format: 'backlog-md',
    titles: [
      'Set up CI',
      'Write the release notes',
      'Add the lint job',
      'Pick a name',
      'Ship the installer',
      'Old spike',
      'Maybe a dark theme',
    ],
    newColumns: ['Draft'],
  },
  {
    path: 'kanban-md',
    format: 'kanban-md',
    titles: ['Design the API', 'Build the client', 'Retry on timeouts', 'Old experiment'],
    newColumns: [],
  },
  {
    path: 'vibe-kanban/tasks.json',
    format: 'vibe-kanban',
    titles: [
      'Set up the database',
      'Add a login page',
      'Review the session handling',
      'Try a GraphQL layer',
      'Write the onboarding guide',
    ],
    newColumns: [],
  },
  {
    path: 'obsidian-kanban/project-board.md',
    format: 'obsidian-kanban',
    titles: [
      'Offline mode',
      'Keyboard shortcuts',
      'Write the landing page',
      'Keyboard shortcuts',
      'Buy the domain',
      'Old logo',
    ],
    newColumns: ['Ideas', 'Doing'],
  },
];

describeInBothModes('kanban import of Backlog.md, kanban-md, vibe-kanban and Obsidian Kanban', (cli) => {
  const { k } = cli;
  const addBoard = async (id: string) =>
    assert.equal((await cli.mode.rest('POST', '/api/boards', { id, name: id })).status, 201);

  for (const source of NEW_FORMATS) {
    it(`when the ${source.format} fixture is imported, then a dry run writes nothing, --apply creates its cards and a re-run adds nothing`, async () => {
      const board = `b-${source.format}`;
      await addBoard(board);
      const file = path.join(FIXTURES, source.path);
      const dry = jsonOf(await k('import', file, '--board', board, '--json'));
      assert.equal(dry.format, source.format, 'the format is told from the file or folder');
      assert.equal(dry.applied, false);
      assert.deepEqual(
        dry.cards.map((c: any) => c.title),
        source.titles,
      );
      assert.deepEqual(
        dry.newColumns.map((c: any) => c.name),
        source.newColumns,
      );
      assert.deepEqual(await cardsOf(cli, board), [], 'a dry run writes no card');
      const columnsBefore = (await restData(cli.mode, `/api/boards/${board}/columns`)).map((c: any) => c.name);
      assert.equal(columnsBefore.length, 5, 'nor a column');

      const run = await kanban(['import', file, '--board', board, '--apply', '--json', ...cli.mode.args], {
        env: { KANBAN_PROGRESS: 'always' },
      });
      assert.equal(jsonOf(run).created, source.titles.length);
      const total = source.titles.length;
      // In-process the service reports each card, drawn as a bar; through a server, a timer.
      if (cli.inProcess) assert.match(run.stderr, new RegExp(`creating cards \\[#{24}\\] 100% ${total}/${total}`));
      assert.match(run.stderr, /kanban: done after [\d.]+ s/);
      assert.deepEqual((await cardsOf(cli, board)).map((c) => c.title).sort(), [...source.titles].sort());
      const columns = (await restData(cli.mode, `/api/boards/${board}/columns`)).map((c: any) => c.name);
      assert.deepEqual(columns, [...columnsBefore.slice(0, -1), ...source.newColumns, 'Done'], 'Done stays last');

      const again = jsonOf(await k('import', file, '--board', board, '--apply', '--json'));
      assert.equal(again.created, 0);
      assert.equal(again.skipped.length, source.titles.length);
      assert.deepEqual(again.newColumns, []);
      assert.equal((await cardsOf(cli, board)).length, source.titles.length);
    });
  }

  it('when the Backlog.md fixture is imported, then status, labels, assignee, priority, due date, links, checklist, content, archive and milestone come across', async () => {
    const cards = byTitle(await cardsOf(cli, 'b-backlog-md'));
    const ci = cards.get('Set up CI');
    const notes = cards.get('Write the release notes');
    const lint = cards.get('Add the lint job');
    assert.equal(ci.metadata.importedFrom, 'backlog-md:TASK-1');
    assert.equal(ci.status, 'todo');
    assert.deepEqual(ci.labels, ['infra', 'ci', 'v1.0']);
    assert.equal(ci.assignee, 'ada');
    assert.equal(ci.priority, 'high');
    assert.equal(ci.dueDate, '2026-12-15');
    assert.deepEqual(
      ci.checklistItems.map((i: any) => [i.text, i.done]),
      [
        ['Tests run on push', false],
        ['Badge in README', false],
        ['Docs updated', false],
      ],
    );
    assert.equal(
      ci.content,
      '# Set up CI\n\nRun the tests on every push.\n\n## Acceptance Criteria\n- [ ] Tests run on push\n- [ ] Badge in README\n\n' +
        '## Definition of Done\n- [ ] Docs updated\n',
    );
    assert.equal(notes.status, 'in-progress');
    assert.equal(notes.assignee, 'bob');
    assert.equal(notes.priority, 'medium');
    assert.deepEqual(notes.blockedBy, [ci.id]);
    assert.match(
      notes.content,
      /Summarise the changes\.\n\n## Implementation Plan\n\n1\. Collect merged PRs\n2\. Group by area/,
    );
    assert.match(notes.content, /## Implementation Notes\n\nStarted from the changelog\./);
    assert.doesNotMatch(notes.content, /<!--/);
    assert.equal(parentOf(lint), ci.id);
    assert.equal(lint.priority, 'low');
    assert.deepEqual(lint.labels, ['ci']);
    assert.equal(cards.get('Pick a name').status, 'done');
    assert.match(cards.get('Pick a name').content, /## Final Summary\n\nWe picked Demo\./);
    assert.equal(cards.get('Ship the installer').status, 'done', 'a completed task is done');
    assert.equal(cards.get('Ship the installer').archivedAt ?? null, null, 'a completed task is not archived');
    assert.ok(cards.get('Old spike').archivedAt, 'an archived task is archived');
    assert.equal(cards.get('Old spike').status, 'todo');
    assert.equal(cards.get('Maybe a dark theme').status, 'draft');
    const labels = await restData(cli.mode, '/api/labels');
    assert.equal(labels['v1.0']?.group, 'milestone');
  });

  it('when kanban-md, vibe-kanban and Obsidian cards are imported, then their links, columns, dates and archive come across', async () => {
    const md = byTitle(await cardsOf(cli, 'b-kanban-md'));
    assert.deepEqual(md.get('Build the client').blockedBy, [md.get('Design the API').id]);
    assert.equal(md.get('Build the client').priority, 'critical');
    assert.equal(md.get('Build the client').dueDate, '2026-03-01');
    assert.deepEqual(md.get('Build the client').labels, ['client', 'api']);
    assert.equal(parentOf(md.get('Retry on timeouts')), md.get('Build the client').id);
    assert.ok(md.get('Old experiment').archivedAt);
    const vibe = byTitle(await cardsOf(cli, 'b-vibe-kanban'));
    assert.deepEqual(
      ['Add a login page', 'Review the session handling', 'Set up the database', 'Write the onboarding guide'].map(
        (t) => vibe.get(t).status,
      ),
      ['in-progress', 'review', 'done', 'todo'],
    );
    assert.ok(vibe.get('Try a GraphQL layer').archivedAt, 'a cancelled task is archived');
    const obsidian = await cardsOf(cli, 'b-obsidian-kanban');
    const page = obsidian.find((c) => c.title === 'Write the landing page');
    assert.equal(page.status, 'doing');
    assert.equal(page.dueDate, '2026-04-10');
    assert.deepEqual(page.labels, ['web']);
    assert.match(page.content, /Hero, pricing, FAQ\./);
    assert.deepEqual(
      obsidian
        .filter((c) => c.title === 'Keyboard shortcuts')
        .map((c) => c.status)
        .sort(),
      ['doing', 'ideas'],
    );
    assert.equal(obsidian.find((c) => c.title === 'Buy the domain').status, 'done');
    assert.ok(obsidian.find((c) => c.title === 'Old logo').archivedAt);
  });

  it('when a board is exported as Backlog.md and imported into another board, then the live cards are the same', async () => {
    const out = path.join(cli.mode.root, 'exported');
    const wrote = expectCode(await k('export', 'backlog', '--board', 'b-backlog-md', '--out', out), 0);
    assert.match(wrote.stderr, /wrote \d+ file\(s\)/);
    const config = await fs.readFile(path.join(out, 'backlog', 'config.yml'), 'utf8');
    assert.match(config, /statuses: \[Backlog, To Do, In Progress, Review, Draft, Done\]/);
    const refused = await k('export', 'backlog', '--board', 'b-backlog-md', '--out', out);
    assert.notEqual(refused.code, 0, 'an existing project is not overwritten');
    await addBoard('copy');
    const imported = jsonOf(await k('import', out, '--board', 'copy', '--apply', '--json'));
    assert.equal(imported.format, 'backlog-md');
    const live = (cards: any[]) => cards.filter((c) => !c.archivedAt);
    const original = live(await cardsOf(cli, 'b-backlog-md'));
    const copy = byTitle(await cardsOf(cli, 'copy'));
    assert.equal(copy.size, original.length);
    const titleOf = (cards: any[], id: string | undefined) => cards.find((c) => c.id === id)?.title;
    const all = [...copy.values()];
    for (const card of original) {
      const twin = copy.get(card.title);
      assert.ok(twin, card.title);
      for (const field of ['status', 'labels', 'assignee', 'priority', 'dueDate', 'content'])
        assert.deepEqual(twin[field], card[field], `${card.title}: ${field}`);
      assert.deepEqual(
        (twin.blockedBy ?? []).map((id: string) => titleOf(all, id)),
        (card.blockedBy ?? []).map((id: string) => titleOf(original, id)),
      );
      assert.equal(titleOf(all, parentOf(twin)), titleOf(original, parentOf(card)), `${card.title}: parent`);
    }
  });
});
