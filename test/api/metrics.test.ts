import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { createTask, okData } from '../helpers/envelope';
import { D, EXPECTED, RANGE, writeKnownHistory } from '../helpers/flowHistory';
import { useCardProviderServer } from '../helpers/perProvider';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { eventually } from '../helpers/waiting';
import { buildCli, expectCode, kanban } from '../cli/helpers';
import { KanbanService } from '../../extension/service/kanbanService';
import { boardMetricsAnswer } from '../../server/service/metrics';

const query = `from=${RANGE.from}&to=${RANGE.to}`;

describe('API metrics: flow metrics from the recorded history', function () {
  this.timeout(30_000);
  let server: TestServer;
  afterEach(() => server?.close());

  describe('over a history of known instants', () => {
    beforeEach(async () => {
      const root = await makeTempDir();
      await writeKnownHistory(root);
      server = await startTestServer({ root });
    });

    it('when the range is given, then cycle and lead time, throughput, WIP and cumulative flow are exact', async () => {
      const m = okData(await server.api('GET', `/api/metrics?${query}`));
      assert.equal(m.from, '2026-03-02T00:00:00.000Z');
      assert.equal(m.to, '2026-03-14T23:59:59.999Z');
      assert.deepEqual(m.cycleTime, EXPECTED.cycleTime);
      assert.deepEqual(m.leadTime, EXPECTED.leadTime);
      assert.deepEqual(m.throughput, EXPECTED.throughput);
      assert.deepEqual(m.cycleTimeUnknown, EXPECTED.cycleTimeUnknown);
      assert.deepEqual(m.wip.find((w: any) => w.column === 'in-progress').cards, EXPECTED.wipInProgress);
      assert.deepEqual(m.cumulativeFlow.series.find((s: any) => s.column === 'done').counts, EXPECTED.doneCounts);
      const alpha = m.cards.find((c: any) => c.id === 'alpha-2026-03-02');
      assert.deepEqual(
        { history: alpha.history, startedAt: alpha.startedAt, cycle: alpha.cycleTimeMs },
        { history: 'full', startedAt: '2026-03-03T00:00:00.000Z', cycle: 2 * D + 6 * 3_600_000 },
      );
    });

    it('when the board twin or ?board= names the board, then the answer is the same', async () => {
      const plain = okData(await server.api('GET', `/api/metrics?${query}`));
      assert.deepEqual(okData(await server.api('GET', `/api/boards/default/metrics?${query}`)), plain);
      assert.deepEqual(okData(await server.api('GET', `/api/metrics?board=default&${query}`)), plain);
    });

    it('when the board does not exist or the range is backwards, then 404 and 400 say so', async () => {
      assert.equal((await server.api('GET', `/api/metrics?board=nope&${query}`)).status, 404);
      assert.equal((await server.api('GET', `/api/boards/nope/metrics`)).status, 404);
      const backwards = await server.api('GET', '/api/metrics?from=2026-03-10&to=2026-03-01');
      assert.equal(backwards.status, 400);
      assert.match(backwards.body?.error ?? '', /from .* must not be after to/);
      assert.equal((await server.api('GET', '/api/metrics?from=yesterday')).status, 400);
    });
  });

  describe('while other processes and hand edits change the cards', () => {
    before(() => buildCli());
    beforeEach(async () => {
      const root = await makeTempDir();
      await writeKnownHistory(root);
      server = await startTestServer({ root });
    });

    const cardFile = (status: string, id: string) =>
      path.join(server.root, '.kanban', 'boards', 'default', status, `${id}.md`);
    const historyOf = async (file: string) =>
      (yaml.load((await fs.readFile(file, 'utf8')).split('---')[1]) as { columnHistory: string[] }).columnHistory;

    it("when the CLI moves a card in-process beside the editor's service, then its next metrics show the move with its recorded time", async () => {
      // The standalone server refuses a CLI write beside it; the editor's in-process service does not.
      await server.running.close();
      const service = await KanbanService.open(server.root);
      const metrics = async () =>
        JSON.parse(boardMetricsAnswer(service.workspace, 'default', { from: RANGE.from }).body.toString()).data;
      try {
        assert.equal((await metrics()).cards.find((c: any) => c.id === 'echo-2026-03-02').finishedAt, null);
        const moved = await kanban(['move', 'echo-2026-03-02', 'done', '--dir', server.root], {
          env: { KANBAN_DAEMON: 'never' },
        });
        expectCode(moved, 0);
        const history = await historyOf(cardFile('done', 'echo-2026-03-02'));
        assert.equal(history.length, 3, 'the CLI added its line to the two recorded ones');
        const [at, move] = history[2].split(/ (.*)/);
        assert.equal(move, 'in-progress -> done');

        const echo = await eventually(async () => {
          const m = await metrics();
          const card = m.cards.find((c: any) => c.id === 'echo-2026-03-02');
          assert.equal(card.status, 'done');
          assert.equal(card.finishedAt, at, 'the time the CLI recorded, not when the watcher noticed');
          assert.equal(m.cycleTime.count, EXPECTED.cycleTime.count + 1);
          return card;
        });
        assert.equal(echo.cycleTimeMs, Date.parse(at) - Date.parse(echo.startedAt));
      } finally {
        await service.close();
      }
    });

    it('when a pull brings a card file with an earlier start, then the next metrics read it', async () => {
      const first = okData(await server.api('GET', `/api/metrics?${query}`));
      assert.equal(first.cards.find((c: any) => c.id === 'echo-2026-03-02').startedAt, '2026-03-08T00:00:00.000Z');
      const file = cardFile('in-progress', 'echo-2026-03-02');
      const text = await fs.readFile(file, 'utf8');
      // An earlier start than the one recorded: the first entry into the start column wins.
      const pulled = text.replace(
        '  - 2026-03-08T00:00:00.000Z backlog -> in-progress\n',
        '  - 2026-03-04T00:00:00.000Z backlog -> in-progress\n  - 2026-03-05T00:00:00.000Z in-progress -> backlog\n' +
          '  - 2026-03-08T00:00:00.000Z backlog -> in-progress\n',
      );
      assert.notEqual(pulled, text);
      await fs.writeFile(file, pulled);
      await eventually(async () => {
        const again = okData(await server.api('GET', `/api/metrics?${query}`));
        assert.equal(again.cards.find((c: any) => c.id === 'echo-2026-03-02').startedAt, '2026-03-04T00:00:00.000Z');
      });
    });

    it('when a card file is moved into the last column by hand, then the metrics count it finished when the watcher saw it, and the file is not written', async () => {
      const from = cardFile('in-progress', 'echo-2026-03-02');
      const to = cardFile('done', 'echo-2026-03-02');
      const before = Date.now();
      await fs.mkdir(path.dirname(to), { recursive: true });
      await fs.rename(from, to);
      const text = await fs.readFile(to, 'utf8');
      const echo = await eventually(async () => {
        const m = okData(await server.api('GET', `/api/metrics?from=${RANGE.from}`));
        const card = m.cards.find((c: any) => c.id === 'echo-2026-03-02');
        assert.equal(card.status, 'done');
        assert.ok(card.finishedAt, 'the hand move counts as a finish');
        return card;
      });
      assert.ok(Date.parse(echo.finishedAt) >= before && Date.parse(echo.finishedAt) <= Date.now());
      assert.equal(await fs.readFile(to, 'utf8'), text, 'a read of the tree writes nothing');
    });
  });

  describe('recording from now on', () => {
    beforeEach(async () => {
      server = await startTestServer();
    });

    it('when a card is created and moved, then each move is recorded with its time and the metrics count it', async () => {
      const before = Date.now();
      const card = await createTask(server, { title: 'Flowing', status: 'todo' });
      okData(await server.api('PATCH', `/api/tasks/${card.id}/move`, { status: 'in-progress' }));
      okData(await server.api('PATCH', `/api/tasks/${card.id}/move`, { status: 'done' }));
      const m = okData(await server.api('GET', '/api/metrics'));
      const mine = m.cards.find((c: any) => c.id === card.id);
      assert.equal(mine.history, 'full');
      assert.ok(Date.parse(mine.startedAt) >= before && mine.finishedAt >= mine.startedAt);
      assert.equal(mine.cycleTimeMs, Date.parse(mine.finishedAt) - Date.parse(mine.startedAt));
      assert.equal(m.cycleTime.count, 1);

      const history = (
        await fs.readFile(path.join(server.root, '.kanban', 'boards', 'default', 'done', `${card.id}.md`), 'utf8')
      )
        .split('\n')
        .filter((line) => / -> /.test(line))
        .map((line) => line.replace(/^ {2}- \S+ /, ''));
      assert.deepEqual(history, ['-> todo', 'todo -> in-progress', 'in-progress -> done']);

      await server.restart();
      const again = okData(await server.api('GET', '/api/metrics'));
      const stable = ({ history, startedAt, finishedAt, cycleTimeMs, leadTimeMs }: any) =>
        JSON.stringify({ history, startedAt, finishedAt, cycleTimeMs, leadTimeMs });
      assert.equal(stable(again.cards.find((c: any) => c.id === card.id)), stable(mine));
    });

    it('when a card is transferred to another board, then it leaves one board and enters the other', async () => {
      assert.equal((await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' })).status, 201);
      const card = await createTask(server, { title: 'Travels', status: 'in-progress' });
      okData(await server.api('POST', `/api/boards/ops/tasks/${card.id}/transfer`, { targetStatus: 'todo' }));
      const here = okData(await server.api('GET', '/api/metrics'));
      const there = okData(await server.api('GET', '/api/boards/ops/metrics'));
      assert.deepEqual(
        here.cards.map((c: any) => c.id),
        [],
      );
      assert.deepEqual(
        there.cards.map((c: any) => [c.id, c.history, c.status]),
        [[card.id, 'full', 'todo']],
      );
    });
  });
});

for (const provider of ['sqlite', 'mysql', 'postgres'] as const) {
  describe(`API metrics over ${provider}: the history lives with the cards`, function () {
    this.timeout(60_000);
    let server: TestServer;
    useCardProviderServer(provider, (started) => (server = started));

    it('when a card is moved and the server restarts, then the recorded moves still give its cycle time', async () => {
      const card = await createTask(server, { title: 'Stored', status: 'in-progress' });
      okData(await server.api('PATCH', `/api/tasks/${card.id}/move`, { status: 'done' }));
      const first = okData(await server.api('GET', '/api/metrics')).cards.find((c: any) => c.id === card.id);
      assert.equal(first.history, 'full');
      assert.equal(first.cycleTimeMs, Date.parse(first.finishedAt) - Date.parse(first.startedAt));
      await server.restart();
      const again = okData(await server.api('GET', '/api/metrics')).cards.find((c: any) => c.id === card.id);
      assert.deepEqual(
        [again.startedAt, again.finishedAt, again.cycleTimeMs],
        [first.startedAt, first.finishedAt, first.cycleTimeMs],
      );
    });
  });
}
