import { activateWith, deactivate, double, runCommand, tempFolder, waitFor } from './helpers/harness';
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { KanbanService } from '../../extension/service/kanbanService';
import { expectCode, kanban } from '../cli/helpers';

type Offered = { items: { label: string; description?: string; detail?: string }[] };

/** A git checkout whose user is Ada, with these cards made by the real service; answers their ids by title. */
async function repoWith(cards: Record<string, unknown>[]): Promise<{ folder: string; idOf: Map<string, string> }> {
  const folder = await tempFolder();
  execFileSync('git', ['init', '-q'], { cwd: folder });
  execFileSync('git', ['config', 'user.name', 'Ada Lovelace'], { cwd: folder });
  const service = await KanbanService.open(folder);
  const idOf = new Map<string, string>();
  for (const card of cards) {
    const answer = await service.dispatcher.dispatch({ method: 'POST', path: '/tasks', body: card });
    if (answer.status !== 201) throw new Error(`could not seed: ${JSON.stringify(answer.body)}`);
    const made = (answer.body as { data: { id: string; title: string } }).data;
    idOf.set(made.title, made.id);
  }
  await service.close();
  return { folder, idOf };
}

describe('extension: agents at work in the status bar', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when agents in other processes claim cards and one waits for input, then the status bar counts them and its list opens the question first', async () => {
    const { folder, idOf } = await repoWith([
      { content: '# Port the parser\n' },
      { content: '# Pick a database\n' },
      { content: '# Nobody on it\n' },
    ]);
    const parts = activateWith([folder]);
    await parts.services.get(parts.folders.all()[0]);
    expectCode(await kanban(['claim', idOf.get('Port the parser')!, '--agent', 'alpha', '--dir', folder]), 0);
    expectCode(
      await kanban([
        'report',
        idOf.get('Pick a database')!,
        'awaitingInput',
        '--note',
        'Postgres or SQLite?',
        '--agent',
        'beta',
        '--dir',
        folder,
      ]),
      0,
    );

    const counted = '$(hubot) 2 agents · $(bell) 1 awaiting input';
    const item = await waitFor(
      () => (double.statusItem('kanban.agents')?.text === counted ? double.statusItem('kanban.agents') : null),
      `the status bar to read "${counted}"`,
      20_000,
    );
    assert.equal(item.command, 'kanban.showAgentsAtWork');
    assert.ok(item.visible);

    let offered: Offered | undefined;
    double.answer('quickPick', (o: Offered) => {
      offered = o;
      return o.items[0];
    });
    await runCommand('kanban.showAgentsAtWork');
    assert.deepEqual(
      offered!.items.map((i) => i.label),
      ['Pick a database', 'Port the parser'],
    );
    assert.match(offered!.items[0].description ?? '', /^beta · awaiting input · \d+m left$/);
    assert.equal(offered!.items[0].detail, 'Postgres or SQLite?');
    assert.match(offered!.items[1].description ?? '', /^alpha · claimed · \d+m left$/);
    const panel = double.panels.at(-1)!;
    panel.webview.send({ type: 'ready' });
    const shown = await waitFor(() => panel.webview.posted.find((m) => m.type === 'openTask'), 'openTask');
    assert.equal(shown.taskId, idOf.get('Pick a database'));

    expectCode(await kanban(['release', idOf.get('Port the parser')!, '--dir', folder]), 0);
    await waitFor(
      () => double.statusItem('kanban.agents')?.text === '$(hubot) 1 agent · $(bell) 1 awaiting input',
      'the count to drop with the release',
      20_000,
    );
  });

  it('when an agent asks for input on a card assigned to the git user, then a notification names the agent and the question, and Open Card shows the card; a card of someone else notifies nobody', async () => {
    const { folder, idOf } = await repoWith([
      { content: '# Grace decides\n', assignee: 'Grace Hopper' },
      { content: '# Ada decides\n', assignee: 'Ada Lovelace' },
    ]);
    const parts = activateWith([folder]);
    const service = await parts.services.get(parts.folders.all()[0]);
    double.answer('message', (o: { text: string }) => (/needs your input/.test(o.text) ? 'Open Card' : undefined));
    for (const title of ['Grace decides', 'Ada decides']) {
      const asked = await service.dispatcher.dispatch({
        method: 'PUT',
        path: `/tasks/${idOf.get(title)}/session`,
        body: { state: 'awaitingInput', note: `${title}?` },
        agent: 'gamma',
      });
      assert.equal(asked.status, 200, JSON.stringify(asked.body));
    }
    await waitFor(() => double.messages.some((m) => /needs your input/.test(m.text)), 'the notification');
    const notices = double.messages.filter((m) => /needs your input/.test(m.text));
    assert.deepEqual(
      notices.map((m) => [m.text, m.items]),
      [['Kanban: agent gamma needs your input on "Ada decides": Ada decides?', ['Open Card']]],
    );
    const panel = await waitFor(() => double.panels.at(-1), 'the board to open');
    panel.webview.send({ type: 'ready' });
    const shown = await waitFor(() => panel.webview.posted.find((m) => m.type === 'openTask'), 'openTask');
    assert.equal(shown.taskId, idOf.get('Ada decides'));
  });
});
