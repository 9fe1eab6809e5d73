import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { describeInBothModes, expectCode, jsonOf, restData } from './helpers';

/**
 * Every everyday command, run as the built `kanban` in both modes: on the folder in-process, and
 * through a running server with --url. `--json` must print exactly what REST answers as `data`.
 */
describeInBothModes('kanban everyday commands', (cli) => {
  const { k } = cli;

  let fixId = '';
  let docsId = '';

  it('when a card is added with flags, then it exists with those fields and the output names it', async () => {
    const run = expectCode(
      await k(
        'add',
        'Fix login timeout',
        '--body',
        'Expires after 5 minutes.',
        '--priority',
        'high',
        '--assignee',
        'ada',
        '--label',
        'bug,ui',
        '--meta',
        'sprint=s12',
        '--meta',
        'links.jira=ABC-1',
        '--due',
        '2026-12-01',
      ),
      0,
    );
    const match = /^created (\S+) in backlog$/m.exec(run.stdout);
    assert.ok(match, run.stdout);
    fixId = match[1];
    const card = await restData(cli.mode, `/api/tasks/${fixId}`);
    assert.equal(card.title, 'Fix login timeout');
    assert.equal(card.content, '# Fix login timeout\n\nExpires after 5 minutes.\n');
    assert.deepEqual(
      [card.priority, card.assignee, card.labels, card.metadata, card.dueDate.slice(0, 10)],
      ['high', 'ada', ['bug', 'ui'], { sprint: 's12', links: { jira: 'ABC-1' } }, '2026-12-01'],
    );
  });

  it('when add runs with --json, then it prints exactly the created card as REST reads it', async () => {
    const created = jsonOf(await k('add', 'Write docs', '--status', 'todo', '--json'));
    docsId = created.id;
    const { comments: _comments, ...rest } = await restData(cli.mode, `/api/tasks/${docsId}`);
    void _comments;
    const { comments: _none, ...createdRest } = created;
    void _none;
    assert.deepEqual(createdRest, rest);
    assert.equal(created.status, 'todo');
  });

  it('when list runs, then an aligned table shows every card, and --json equals GET /api/tasks', async () => {
    const run = expectCode(await k('list'), 0);
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^ID\s+STATUS\s+PRIORITY\s+TITLE\s+ASSIGNEE\s+LABELS\s+DUE$/);
    const titleColumn = lines[0].indexOf('TITLE');
    const fixLine = lines.find((l) => l.startsWith(fixId));
    assert.ok(fixLine, run.stdout);
    assert.equal(fixLine.indexOf('Fix login timeout'), titleColumn, 'columns are aligned');
    assert.match(fixLine, /high .*ada .*bug, ui .*2026-12-01/);
    assert.match(lines[lines.length - 1], /^2 card\(s\)$/);
    assert.deepEqual(jsonOf(await k('list', '--json')), await restData(cli.mode, '/api/tasks'));
  });

  it('when list is paged with --limit, then it says how many of how many and the next --cursor gives the rest', async () => {
    const first = expectCode(await k('list', '--limit', '1', '--sort', 'title'), 0)
      .stdout.trimEnd()
      .split('\n');
    const summary = /^1 of 2 card\(s\); next page: --cursor (\S+)$/.exec(first[first.length - 1]);
    assert.ok(summary, first.join('\n'));
    assert.ok(
      first.some((line) => line.startsWith(fixId)),
      'Fix login timeout sorts first by title',
    );
    const rest = jsonOf(await k('list', '--limit', '1', '--sort', 'title', '--cursor', summary[1], '--json'));
    assert.deepEqual(
      rest.map((c: any) => c.id),
      [docsId],
    );
  });

  it("when list is filtered with the route's flags, then the same cards as the REST query come back", async () => {
    const filtered = jsonOf(
      await k('list', '--priority', 'high', '--label', 'bug', '--meta', 'sprint=s12', '-q', 'login', '--json'),
    );
    assert.deepEqual(
      filtered.map((c: any) => c.id),
      [fixId],
    );
    assert.deepEqual(filtered, await restData(cli.mode, '/api/tasks?priority=high&label=bug&meta.sprint=s12&q=login'));
    const fuzzy = jsonOf(await k('list', '--search', 'timout', '--fuzzy', '--json'));
    assert.deepEqual(
      fuzzy.map((c: any) => c.id),
      [fixId],
    );
    assert.deepEqual(
      jsonOf(await k('list', '--status', 'todo', '--json')).map((c: any) => c.id),
      [docsId],
    );
  });

  it('when show gets a partial id, then it prints the card, and --json equals GET /api/tasks/{id}', async () => {
    const run = expectCode(await k('show', 'fix-login'), 0);
    assert.match(run.stdout, /^Fix login timeout\n/);
    assert.match(run.stdout, new RegExp(`id\\s+${fixId}`));
    assert.match(run.stdout, /Expires after 5 minutes\./);
    assert.deepEqual(jsonOf(await k('show', 'fix-login', '--json')), await restData(cli.mode, `/api/tasks/${fixId}`));
  });

  it('when edit changes the title and merges metadata, then the content keeps its text and other keys stay', async () => {
    const run = expectCode(
      await k(
        'edit',
        'fix-login',
        '--title',
        'Fix the login timeout',
        '--priority',
        'critical',
        '--meta',
        'sprint=s13',
      ),
      0,
    );
    assert.match(run.stdout, new RegExp(`updated ${fixId}`));
    const card = await restData(cli.mode, `/api/tasks/${fixId}`);
    assert.equal(card.content, '# Fix the login timeout\n\nExpires after 5 minutes.\n');
    assert.equal(card.priority, 'critical');
    assert.deepEqual(card.metadata, { sprint: 's13', links: { jira: 'ABC-1' } });
    const edited = jsonOf(await k('edit', fixId, '--assignee', '', '--json'));
    assert.equal(edited.assignee, null);
    assert.deepEqual(edited, await restData(cli.mode, `/api/tasks/${fixId}`));
  });

  it("when move names a column and a position, then the card is there; an unknown column is the API's message and exit 1", async () => {
    expectCode(await k('move', 'fix-login', 'in-progress', '--position', '0'), 0);
    assert.equal((await restData(cli.mode, `/api/tasks/${fixId}`)).status, 'in-progress');
    const refused = expectCode(await k('move', 'fix-login', 'nowhere'), 1);
    assert.match(refused.stderr, /^kanban: .*"nowhere".*not a column/m);
    assert.equal(refused.stdout, '');
    const moved = jsonOf(await k('move', docsId, 'review', '--json'));
    assert.deepEqual(moved, await restData(cli.mode, `/api/tasks/${docsId}`));
  });

  it("when the id matches no card, then exit 1 with the API's not-found message", async () => {
    const run = expectCode(await k('show', 'no-such-card-anywhere'), 1);
    assert.match(run.stderr, /^kanban: no card matching "no-such-card-anywhere"/m);
    assert.equal(run.stdout, '');
  });

  it('when delete and restore run, then the card goes to the deleted column and comes back to the column it left', async () => {
    const before = (await restData(cli.mode, `/api/tasks/${docsId}`)).status;
    assert.notEqual(before, 'backlog', 'the card is not in the default column, so a restore there would show');
    const deleted = expectCode(await k('delete', docsId), 0);
    assert.match(deleted.stdout, /kanban restore/);
    assert.equal((await restData(cli.mode, `/api/tasks/${docsId}`)).status, 'deleted');
    const restored = expectCode(await k('restore', docsId), 0);
    assert.match(restored.stdout, new RegExp(`restored .* to ${before}`));
    assert.equal((await restData(cli.mode, `/api/tasks/${docsId}`)).status, before);
    const again = expectCode(await k('restore', docsId), 1);
    assert.match(again.stderr, /neither archived nor deleted/);
  });

  it('when transfer names another board made with a generated command, then the card moves there', async () => {
    const board = jsonOf(await k('api', 'post-boards', '--id', 'ops', '--name', 'Ops', '--json'));
    assert.deepEqual(board, await restData(cli.mode, '/api/boards/ops'));
    const run = expectCode(await k('transfer', docsId, '--to', 'ops', '--status', 'todo'), 0);
    assert.match(run.stdout, /transferred .* to ops \(todo\)/);
    const moved = await restData(cli.mode, `/api/boards/ops/tasks/${docsId}`);
    assert.equal(moved.status, 'todo');
    assert.deepEqual(
      jsonOf(await k('list', '--board', 'ops', '--json')),
      await restData(cli.mode, '/api/boards/ops/tasks'),
    );
    expectCode(await k('transfer', docsId), 2);
  });

  it('when a card was transferred to another board, then show and checklist on the default board name the board that holds it', async () => {
    for (const command of ['show', 'checklist']) {
      const run = expectCode(await k(command, docsId), 1);
      assert.match(
        run.stderr,
        new RegExp(`no card "${docsId}" on board "default"; it is on board "ops" \\(add --board ops\\)`),
      );
    }
    const prefix = docsId.slice(0, 'write-do'.length);
    const partial = expectCode(await k('show', prefix), 1);
    assert.match(
      partial.stderr,
      new RegExp(
        `no card matching "${prefix}" on board "default"; card "${docsId}" is on board "ops" \\(add --board ops\\)`,
      ),
    );
    expectCode(await k('show', docsId, '--board', 'ops'), 0);
  });

  it('when comment and comments run, then the comment is stored and listed, and --json equals REST', async () => {
    const run = expectCode(await k('comment', 'fix-login', 'Reproduced on staging.', '--author', 'ada'), 0);
    assert.match(run.stdout, /commented on fix-login \(c_/);
    const listed = expectCode(await k('comments', 'fix-login'), 0);
    assert.match(listed.stdout, /^ID\s+AUTHOR\s+CREATED\s+COMMENT\n.*ada .*Reproduced on staging\./m);
    assert.deepEqual(
      jsonOf(await k('comments', 'fix-login', '--json')),
      await restData(cli.mode, `/api/tasks/${fixId}/comments`),
    );
  });

  it('when log gets text, then an entry is appended; without text it lists them as REST does', async () => {
    expectCode(await k('log', 'fix-login', 'Deployed to staging'), 0);
    const entries = await restData(cli.mode, `/api/tasks/${fixId}/logs`);
    assert.equal(entries.length, 1);
    assert.equal(entries[0].text, 'Deployed to staging');
    assert.match(expectCode(await k('log', 'fix-login'), 0).stdout, /Deployed to staging/);
    assert.deepEqual(jsonOf(await k('log', 'fix-login', '--json')), entries);
  });

  it('when attach sends a file, then REST serves the same bytes', async () => {
    const file = path.join(cli.mode.root, '..', `notes-${process.pid}.txt`);
    await fs.writeFile(file, 'line one\nline two\n');
    try {
      const run = expectCode(await k('attach', 'fix-login', file), 0);
      assert.match(run.stdout, /attached notes-\d+\.txt/);
      const bytes = await cli.mode.restBytes(`/api/tasks/${fixId}/attachments/${path.basename(file)}`);
      assert.equal(bytes.toString('utf8'), 'line one\nline two\n');
      const missing = expectCode(await k('attach', 'fix-login', `${file}.missing`), 1);
      assert.match(missing.stderr, /cannot read .*no such file/);
    } finally {
      await fs.rm(file, { force: true });
    }
  });

  it('when cards carry labels that no definition names, then labels lists them with card counts and says they are not defined', async () => {
    assert.deepEqual(await restData(cli.mode, '/api/labels'), {});
    const run = expectCode(await k('labels'), 0);
    assert.match(run.stdout, /^LABEL\s+COLOR\s+GROUP\s+COUNT\s+NOTE$/m);
    assert.match(run.stdout, /^bug\s+1\s+not defined in \.kanban\.json$/m);
    assert.match(run.stdout, /^ui\s+1\s+not defined in \.kanban\.json$/m);
    assert.deepEqual(await restData(cli.mode, '/api/labels/usage'), [
      { name: 'bug', defined: false, color: null, group: null, cards: 1 },
      { name: 'ui', defined: false, color: null, group: null, cards: 1 },
    ]);
  });

  it('when boards, columns, labels, settings and webhooks are listed, then tables show them and --json equals REST', async () => {
    expectCode(await k('api', 'put-label', 'bug', '--color', '#ef4444', '--group', 'type'), 0);
    const boards = expectCode(await k('boards'), 0).stdout;
    assert.match(boards, /^ID\s+NAME\s+CARDS\s+COLUMNS\n/);
    assert.match(boards, /default \(default\)\s+Default\s+1/);
    assert.match(expectCode(await k('columns'), 0).stdout, /in-progress\s+In Progress\s+#f59e0b/);
    const labels = expectCode(await k('labels'), 0).stdout;
    assert.match(labels, /^bug\s+#ef4444\s+type\s+1\s*$/m);
    assert.match(labels, /^ui\s+1\s+not defined in \.kanban\.json$/m);
    assert.match(expectCode(await k('settings'), 0).stdout, /compactMode\s+false/);
    assert.match(expectCode(await k('webhooks'), 0).stdout, /no webhooks/);
    for (const [command, url] of [
      ['boards', '/api/boards'],
      ['columns', '/api/columns'],
      ['labels', '/api/labels'],
      ['settings', '/api/settings'],
      ['webhooks', '/api/webhooks'],
    ]) {
      assert.deepEqual(jsonOf(await k(command, '--json')), await restData(cli.mode, url), command);
    }
    assert.deepEqual(
      jsonOf(await k('columns', '--board', 'ops', '--json')),
      await restData(cli.mode, '/api/boards/ops/columns'),
    );
  });

  it('when settings gets key=value pairs, then they are saved with their types', async () => {
    const saved = jsonOf(await k('settings', 'compactMode=true', 'defaultPriority=high', '--json'));
    assert.equal(saved.compactMode, true);
    assert.deepEqual(await restData(cli.mode, '/api/settings'), saved);
    assert.equal(saved.defaultPriority, 'high');
  });

  it('when a card file is broken by hand, then edit fails with exit 1 and a message naming the file and the problem', async () => {
    const file = path.join(cli.mode.root, '.kanban', 'boards', 'default', 'in-progress', `${fixId}.md`);
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace(/^priority: .*$/m, 'priority: [unclosed'));
    try {
      // Through a server the last good version stays readable and the write is a 409; in-process
      // the file is reported as it is read, and the card is not there to change.
      const run = expectCode(await k('edit', fixId, '--priority', 'low'), 1);
      assert.match(run.stderr, new RegExp(`${fixId}\\.md`));
      assert.match(run.stderr, /pars|YAML|flow/i);
      assert.equal(
        await fs.readFile(file, 'utf8'),
        text.replace(/^priority: .*$/m, 'priority: [unclosed'),
        'the broken file is left as it is',
      );
    } finally {
      await fs.writeFile(file, text);
    }
  });

  it('when storage status and the two migrations run, then the provider switches both ways and --json equals REST', async () => {
    assert.deepEqual(jsonOf(await k('storage', 'status', '--json')), await restData(cli.mode, '/api/storage'));
    assert.match(expectCode(await k('storage'), 0).stdout, /card\s+provider=markdown/);
    const toSqlite = expectCode(await k('storage', 'migrate-to-sqlite'), 0);
    assert.match(toSqlite.stdout, /moved 2 card\(s\), 1 comment\(s\), 1 attachment\(s\) from markdown to sqlite/);
    assert.doesNotMatch(
      toSqlite.stderr,
      /copying cards|moving every card/,
      'no progress lines when stderr is not a terminal',
    );
    assert.equal((await restData(cli.mode, '/api/storage')).card.provider, 'sqlite');
    const back = jsonOf(await k('storage', 'migrate-to-markdown', '--json'));
    assert.deepEqual([back.from, back.to, back.cards], ['sqlite', 'markdown', 2]);
    assert.equal((await restData(cli.mode, '/api/storage')).card.provider, 'markdown');
    expectCode(await k('storage', 'sideways'), 2);
  });

  it('when delete --permanent runs, then the card is gone for good', async () => {
    const run = expectCode(await k('delete', docsId, '--board', 'ops', '--permanent'), 0);
    assert.match(run.stdout, /deleted .* for good/);
    assert.equal((await cli.mode.rest('GET', `/api/boards/ops/tasks/${docsId}`)).status, 404);
  });
});
