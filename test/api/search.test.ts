import { strict as assert } from 'node:assert';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, failsWith, okData } from '../helpers/envelope';

describe('API task search and filters', () => {
  let server: TestServer;
  const id: Record<string, string> = {};

  before(async () => {
    server = await startTestServer();
    okData(await server.api('PUT', '/api/labels/bug', { color: '#ff0000', group: 'Type' }));
    okData(await server.api('PUT', '/api/labels/feature', { color: '#00ff00', group: 'Type' }));
    okData(await server.api('PUT', '/api/labels/urgent', { color: '#ff8800', group: 'Flags' }));
    const cards: [string, Record<string, unknown>][] = [
      [
        'login',
        {
          content: '# Fix Login redirect\n\nOAuth callback loops forever.',
          status: 'todo',
          priority: 'high',
          assignee: 'Ana',
          labels: ['bug'],
          metadata: { sprint: 12, team: 'Core Platform', links: { jira: 'ABC-1' } },
        },
      ],
      [
        'docs',
        {
          content: '# Write documentation\n\nCover the REST API.',
          status: 'backlog',
          priority: 'low',
          assignee: 'Bruno',
          labels: ['feature'],
          metadata: { sprint: 13, team: 'Docs' },
        },
      ],
      [
        'pipeline',
        {
          content: '# Deploy pipeline\n\nShip to staging.',
          status: 'in-progress',
          priority: 'critical',
          labels: ['feature', 'urgent'],
          metadata: { sprint: 12, team: 'Core Platform', links: { jira: 'ABC-22' } },
        },
      ],
      ['plain', { content: '# Plain card\n\nnothing special', status: 'todo' }],
      ['gone', { content: '# Deleted login idea', status: 'todo', labels: ['bug'] }],
    ];
    for (const [key, fields] of cards) id[key] = (await createTask(server, fields)).id;
    okData(await server.api('DELETE', `/api/tasks/${id.gone}`));
  });
  after(async () => {
    await server.close();
  });

  async function search(query: string): Promise<string[]> {
    const ids = okData<any[]>(await server.api('GET', `/api/tasks${query}`)).map((t) => t.id);
    const byKey = Object.fromEntries(Object.entries(id).map(([k, v]) => [v, k]));
    return ids.map((i) => byKey[i] ?? i);
  }

  describe('listing', () => {
    it('when no filter is given, then every live task comes in column order, then position', async () => {
      assert.deepEqual(await search(''), ['docs', 'login', 'plain', 'pipeline']);
    });

    it('when tasks are listed, then each carries commentCount but not the comment list', async () => {
      const [task] = okData<any[]>(await server.api('GET', '/api/tasks'));
      assert.equal(task.commentCount, 0);
      assert.equal('comments' in task, false);
    });
  });

  describe('exact text search', () => {
    const cases: [string, string, string[]][] = [
      ['a title word in another case', 'LOGIN', ['login']],
      ['a phrase from the content', 'callback loops', ['login']],
      ['part of an id', 'write-doc', ['docs']],
      ['the assignee', 'bruno', ['docs']],
      ['a label', 'urgent', ['pipeline']],
      ['a metadata value', 'abc-22', ['pipeline']],
      ['a nested metadata value shared by two', 'core platform', ['login', 'pipeline']],
    ];
    for (const [what, q, expected] of cases) {
      it(`when q is ${what}, then exactly the tasks holding it come back`, async () => {
        assert.deepEqual(await search(`?q=${encodeURIComponent(q)}`), expected);
      });
    }

    it('when q has a typo, then exact search finds nothing', async () => {
      assert.deepEqual(await search('?q=pipleine'), []);
    });

    it('when q matches a soft-deleted task, then it is found only with includeDeleted', async () => {
      assert.deepEqual(await search('?q=login%20idea'), []);
      assert.deepEqual(await search('?q=login%20idea&includeDeleted=true'), ['gone']);
    });
  });

  describe('metadata filters', () => {
    it('when q holds a meta token, then only tasks with that metadata match', async () => {
      assert.deepEqual(await search(`?q=${encodeURIComponent('meta.sprint: 13')}`), ['docs']);
    });

    it('when a meta token value is quoted, then the spaces are part of the value', async () => {
      assert.deepEqual(await search(`?q=${encodeURIComponent('meta.team: "Core Platform"')}`), ['login', 'pipeline']);
    });

    it('when a meta token names a nested path, then the nested value is matched', async () => {
      assert.deepEqual(await search(`?q=${encodeURIComponent('meta.links.jira: ABC-1')}`), ['login']);
      assert.deepEqual(await search(`?q=${encodeURIComponent('meta.links.jira: "ABC-22"')}`), ['pipeline']);
    });

    it('when a meta token is combined with free text, then both must match', async () => {
      assert.deepEqual(await search(`?q=${encodeURIComponent('deploy meta.sprint: 12')}`), ['pipeline']);
    });

    it('when meta.<field> query parameters are repeated, then all of them must match', async () => {
      assert.deepEqual(await search('?meta.sprint=12'), ['login', 'pipeline']);
      assert.deepEqual(await search('?meta.sprint=12&meta.links.jira=ABC-22'), ['pipeline']);
      assert.deepEqual(await search('?meta.team=core&meta.team=docs'), []);
    });

    it('when a meta filter names a property every object inherits, then no task matches', async () => {
      assert.deepEqual(await search('?meta.constructor=function'), []);
      assert.deepEqual(await search(`?q=${encodeURIComponent('meta.toString: native')}`), []);
    });

    it('when a meta query parameter has no field name, then 400', async () => {
      failsWith(await server.api('GET', '/api/tasks?meta.=x'), 400, /field name/);
    });
  });

  describe('fuzzy search', () => {
    it('when fuzzy is on, then a typo still finds the task', async () => {
      assert.deepEqual((await search('?q=pipleine&fuzzy=true'))[0], 'pipeline');
      assert.deepEqual((await search('?q=documantation&fuzzy=true'))[0], 'docs');
    });

    it('when fuzzy is on, then metadata tokens tolerate a typo too', async () => {
      assert.deepEqual(await search(`?q=${encodeURIComponent('meta.team: "Core Platfrom"')}&fuzzy=true`), [
        'login',
        'pipeline',
      ]);
      assert.deepEqual(await search(`?q=${encodeURIComponent('meta.team: "Core Platfrom"')}`), []);
    });

    it('when fuzzy is on and filters are given, then filters still apply', async () => {
      assert.deepEqual(await search('?q=pipleine&fuzzy=true&status=todo'), []);
    });

    it('when fuzzy is not true or false, then 400', async () => {
      failsWith(await server.api('GET', '/api/tasks?q=x&fuzzy=maybe'), 400, /fuzzy/);
    });
  });

  describe('filters', () => {
    const cases: [string, string, string[]][] = [
      ['status', '?status=todo', ['login', 'plain']],
      ['status deleted', '?status=deleted', ['gone']],
      ['priority', '?priority=critical', ['pipeline']],
      ['assignee in another case', '?assignee=ana', ['login']],
      ['label', '?label=feature', ['docs', 'pipeline']],
      ['label group', '?labelGroup=Type', ['docs', 'login', 'pipeline']],
      ['label group of one label', '?labelGroup=flags', ['pipeline']],
      ['includeDeleted', '?includeDeleted=true', ['docs', 'login', 'plain', 'pipeline', 'gone']],
      ['label and status together', '?label=bug&status=todo', ['login']],
      ['label with includeDeleted', '?label=bug&includeDeleted=true', ['login', 'gone']],
      ['a status no task has', '?status=review', []],
      ['an unknown label group', '?labelGroup=none', []],
    ];
    for (const [what, query, expected] of cases) {
      it(`when filtering by ${what}, then exactly the matching tasks come back`, async () => {
        assert.deepEqual(await search(query), expected);
      });
    }

    it('when priority is not one of the four values, then 400', async () => {
      failsWith(await server.api('GET', '/api/tasks?priority=urgent'), 400, /priority/);
    });

    it('when a filter is given twice, then 400', async () => {
      failsWith(await server.api('GET', '/api/tasks?status=todo&status=done'), 400, /status/);
    });

    it('when the board twin names no board, then 400', async () => {
      failsWith(await server.api('GET', '/api/boards/nope/tasks'), 400, /nope/);
    });

    it('when the board twin names another board, then only its tasks are searched', async () => {
      okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' }), 201);
      const ops = await createTask(server, { content: '# Ops login check' }, 'ops');
      const found = okData<any[]>(await server.api('GET', '/api/boards/ops/tasks?q=login')).map((t) => t.id);
      assert.deepEqual(found, [ops.id]);
      assert.ok(!(await search('?q=login')).includes(ops.id));
      okData(await server.api('DELETE', `/api/boards/ops/tasks/${ops.id}/permanent`));
    });
  });
});
