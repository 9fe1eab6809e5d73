import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { csvRows } from '../../server/core/csv';
import { readKanbanLiteDir } from '../../server/service/import/kanbanLiteFiles';
import { failsWith, okData } from '../helpers/envelope';
import { eventsDuring, startServerWithOpsBoard } from '../helpers/serverHooks';
import type { TestServer } from '../helpers/testServer';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'import');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

/** Every format: a dry run writes nothing, apply creates, a re-run creates nothing; on two boards. */
describe('API import and export', () => {
  let server: TestServer;
  let kanbanLite: unknown;

  before(async () => {
    server = await startServerWithOpsBoard();
    kanbanLite = await readKanbanLiteDir(path.join(FIXTURES, 'kanban-lite'));
  });
  after(async () => server?.close());

  const sources = (): Record<string, Record<string, unknown>> => ({
    github: { format: 'github', data: JSON.parse(fixture('github.json')), source: 'acme/web' },
    trello: { format: 'trello', data: JSON.parse(fixture('trello.json')) },
    csv: { format: 'csv', data: fixture('cards.csv'), source: 'cards.csv' },
    'kanban-lite': { format: 'kanban-lite', data: kanbanLite },
  });
  const expectedTitles: Record<string, string[]> = {
    github: ['Fix login timeout on slow networks', 'Add a dark theme', 'Document the webhook retries'],
    trello: ['Redesign the settings page', 'Weekly release notes', 'Ship the onboarding emails'],
    csv: ['Import the CSV', 'Write the "export" docs', 'Unknown column card'],
    'kanban-lite': ['Pick a name', 'Review flow', 'Set up CI'],
  };

  async function cardsOn(board: string): Promise<any[]> {
    const list = okData<any[]>(await server.api('GET', `/api/boards/${board}/tasks`));
    return Promise.all(list.map(async (t) => okData(await server.api('GET', `/api/boards/${board}/tasks/${t.id}`))));
  }
  const byTitle = (cards: any[], title: string) =>
    cards.find((c) => c.title === title) ??
    assert.fail(`no card "${title}" among ${cards.map((c) => c.title).join(', ')}`);

  for (const board of ['default', 'ops']) {
    for (const format of ['github', 'trello', 'csv', 'kanban-lite']) {
      describe(`${format} into board ${board}`, () => {
        const body = () => ({ ...sources()[format], ...(board === 'default' ? {} : { board }) });
        const mine = async () =>
          (await cardsOn(board)).filter((c) =>
            String(c.metadata.importedFrom ?? '').startsWith(`${format === 'kanban-lite' ? 'kanban-lite' : format}:`),
          );

        it('when imported without apply, then the answer lists what would be created and nothing is written', async () => {
          const result = okData(await server.api('POST', '/api/import', body()));
          assert.equal(result.applied, false);
          assert.equal(result.created, 3);
          assert.deepEqual(
            result.cards.map((c: any) => c.title),
            expectedTitles[format],
          );
          assert.deepEqual(await mine(), []);
        });

        it('when applied, then the cards exist with importedFrom; when applied again, then nothing is duplicated', async () => {
          const first = okData(await server.api('POST', '/api/import', { ...body(), apply: true }));
          assert.equal(first.created, 3);
          assert.ok(first.cards.every((c: any) => typeof c.id === 'string'));
          assert.deepEqual((await mine()).map((c) => c.title).sort(), [...expectedTitles[format]].sort());
          const again = okData(await server.api('POST', '/api/import', { ...body(), apply: true }));
          assert.equal(again.created, 0);
          assert.deepEqual(
            again.skipped.map((s: any) => s.existingId).sort(),
            first.cards.map((c: any) => c.id).sort(),
          );
          assert.equal((await mine()).length, 3);
        });
      });
    }
  }

  describe('what each format carries over (default board)', () => {
    let cards: any[];
    before(async () => {
      cards = await cardsOn('default');
    });

    it('when a GitHub export is imported, then labels, assignees, milestone, task lists, comments and closed state carry over', () => {
      const issue = byTitle(cards, 'Fix login timeout on slow networks');
      assert.equal(issue.metadata.importedFrom, 'github:acme/web#12');
      assert.deepEqual(
        [issue.status, issue.assignee, issue.labels, issue.metadata.milestone, issue.metadata.assignees],
        ['backlog', 'octocat', ['bug'], 'v1.2', ['octocat', 'hubot']],
      );
      assert.match(issue.content, /^- \[ \] reproduce on 3G$/m);
      assert.match(issue.content, /^- \[x\] read the session code$/m);
      assert.deepEqual(
        issue.comments.map((c: any) => [c.author, c.content, c.created]),
        [['hubot', 'Seen on Firefox too.', '2026-01-06T10:00:00.000Z']],
      );
      assert.equal(byTitle(cards, 'Add a dark theme').status, 'done');
    });

    it('when a Trello export is imported, then lists map to columns by name, checklists become task lists, comments keep their order', () => {
      const card = byTitle(cards, 'Redesign the settings page');
      assert.deepEqual(
        [card.status, card.assignee, card.dueDate, card.labels],
        ['todo', 'Ana Lima', '2026-02-01T17:00:00.000Z', ['design', 'red']],
      );
      assert.match(card.content, /## Steps\n\n- \[x\] Sketch the layout\n- \[ \] Try it with users/);
      assert.deepEqual(
        card.comments.map((c: any) => c.author),
        ['Ana Lima', 'Ben Ode'],
      );
      assert.equal(
        byTitle(cards, 'Weekly release notes').status,
        'backlog',
        '"Doing" matches no column: the default status',
      );
      assert.equal(byTitle(cards, 'Ship the onboarding emails').status, 'done');
    });

    it('when a CSV is imported, then quoted fields, columns by name and labels split on ; come through', () => {
      const card = byTitle(cards, 'Import the CSV');
      assert.deepEqual(
        [card.status, card.priority, card.assignee, card.dueDate, card.labels],
        ['todo', 'high', 'Ana', '2026-03-01', ['import', 'csv']],
      );
      assert.match(card.content, /Read it, then check:\n- \[ \] quotes\n- \[ \] commas/);
      assert.equal(card.metadata.importedFrom, 'csv:cards.csv:Import the CSV');
      assert.equal(byTitle(cards, 'Write the "export" docs').status, 'in-progress');
      assert.equal(byTitle(cards, 'Unknown column card').status, 'backlog');
    });

    it('when a kanban-lite workspace is imported, then frontmatter, comment blocks and column names carry over; deleted cards do not', () => {
      const card = byTitle(cards, 'Set up CI');
      assert.deepEqual(
        [card.status, card.priority, card.assignee, card.dueDate, card.labels, card.metadata.sprint],
        ['todo', 'high', 'ana', '2026-04-01', ['infra', 'ci'], 4],
      );
      assert.match(card.content, /- \[x\] write the workflow/);
      assert.deepEqual(
        card.comments.map((c: any) => [c.author, c.content]),
        [['ben', 'Use the cache for node_modules.']],
      );
      assert.equal(
        byTitle(cards, 'Review flow').status,
        'review',
        'status doing-now is named "Review" in its .kanban.json',
      );
      assert.equal(
        cards.some((c) => c.title === 'Old idea'),
        false,
      );
    });
  });

  describe('notes and bad input', () => {
    it('when a Trello export holds archived cards, then the dry run names them as left out', async () => {
      const result = okData(
        await server.api('POST', '/api/import', {
          format: 'trello',
          data: JSON.parse(fixture('trello.json')),
          board: 'ops',
        }),
      );
      assert.deepEqual(
        result.notes.map((n: any) => n.title),
        ['An archived card', 'Card in an archived list'],
      );
    });

    it('when kanban-lite files use the older flat layout or do not parse, then the good ones are planned and the others named', async () => {
      const files = [
        {
          path: '.kanban/todo/7-flat.md',
          content: '---\nid: "7"\nstatus: "todo"\nlabels: []\n---\n# Flat layout card\n',
        },
        { path: '.kanban/todo/8-broken.md', content: '---\nid: [unclosed\n---\n# Broken\n' },
        { path: '.kanban/todo/9-plain.md', content: '# No frontmatter\n' },
        { path: '.kanban/boards/default/attachments/7/readme.md', content: '# an attachment, not a card\n' },
      ];
      const result = okData(
        await server.api('POST', '/api/import', { format: 'kanban-lite', data: { files }, board: 'ops' }),
      );
      assert.deepEqual(
        result.cards.map((c: any) => [c.title, c.status, c.importedFrom]),
        [['Flat layout card', 'todo', 'kanban-lite:7']],
      );
      assert.deepEqual(
        result.notes.map((n: any) => n.title),
        ['.kanban/todo/8-broken.md', '.kanban/todo/9-plain.md'],
      );
    });

    it('when data does not have the shape of its format, then the 400 says what it must be', async () => {
      failsWith(
        await server.api('POST', '/api/import', { format: 'github', data: { not: 'an array' } }),
        400,
        /data for format "github" must be the JSON array/,
      );
      failsWith(await server.api('POST', '/api/import', { format: 'csv', data: 'name\nx\n' }), 400, /"title" column/);
      failsWith(await server.api('POST', '/api/import', { format: 'jira', data: [] }), 400, /format/);
      failsWith(
        await server.api('POST', '/api/import', { format: 'csv', data: 'title\nx\n', board: 'nope' }),
        404,
        /nope/,
      );
    });
  });

  describe('events', () => {
    it('when an import is applied, then each card is one task.created event carrying its comments; a dry run emits nothing', async () => {
      okData(await server.api('POST', '/api/boards', { id: 'events', name: 'Events' }), 201);
      const body = { format: 'github', data: JSON.parse(fixture('github.json')), source: 'acme/web', board: 'events' };
      assert.deepEqual(await eventsDuring(server, () => server.api('POST', '/api/import', body)), []);
      const events = await eventsDuring(server, () => server.api('POST', '/api/import', { ...body, apply: true }));
      assert.deepEqual(
        events.map((e) => [e.event, e.boardId]),
        Array(3).fill(['task.created', 'events']),
      );
      assert.deepEqual(
        events.map((e: any) => e.card?.comments.length),
        [1, 0, 0],
      );
    });
  });

  describe('export', () => {
    it('when a board is exported as CSV, then the answer is text/csv with the documented columns, and importing it into an empty board gives the same cards', async () => {
      okData(await server.api('POST', '/api/boards', { id: 'copy', name: 'Copy' }), 201);
      const response = await fetch(`${server.url}/api/boards/ops/export?format=csv`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
      const text = await response.text();
      const rows = csvRows(text);
      assert.deepEqual(Object.keys(rows[0]), [
        'id',
        'title',
        'description',
        'status',
        'priority',
        'assignee',
        'due',
        'labels',
        'created',
        'modified',
        'completedat',
      ]);
      const result = okData(
        await server.api('POST', '/api/import', {
          format: 'csv',
          data: text,
          source: 'ops.csv',
          board: 'copy',
          apply: true,
        }),
      );
      assert.equal(result.created, rows.length);
      const fields = (c: any) => [c.title, c.content, c.status, c.priority, c.assignee, c.dueDate, c.labels];
      const original = (await cardsOn('ops')).map(fields);
      const copied = await cardsOn('copy');
      assert.deepEqual(copied.map(fields), original);
      assert.deepEqual(
        copied.map((c) => c.metadata.importedFrom),
        rows.map((r) => `csv:ops.csv:${r.id}`),
      );
    });

    it('when a board is exported as JSON, then it holds the board, its columns and every card with its comments', async () => {
      const response = await fetch(`${server.url}/api/export?format=json`);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const body = await response.json();
      assert.equal(body.board.id, 'default');
      assert.equal(body.cards.length, okData<any[]>(await server.api('GET', '/api/tasks')).length);
      assert.deepEqual(
        byTitle(body.cards, 'Set up CI').comments.map((c: any) => c.author),
        ['ben'],
      );
    });
  });
});
