import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, createTask, failsWith, okData } from '../helpers/envelope';
import { eventsDuring } from '../helpers/serverHooks';

const bugSchema = {
  type: 'object',
  properties: {
    severity: { type: 'string', enum: ['low', 'medium', 'high'] },
    steps: { type: 'string' },
    reporter: { type: 'string' },
    count: { type: 'integer', minimum: 1 },
    browser: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
  required: ['severity', 'steps'],
};

/** Each field says which layer set it, so the winner of every overlap is visible. */
const layeredSchema = {
  type: 'object',
  properties: {
    a: { type: 'string' },
    b: { type: 'string' },
    c: { type: 'string' },
    d: { type: 'string' },
    e: { type: 'string' },
  },
};

const CONFIG = {
  version: 2,
  boards: [
    { id: 'default', name: 'Default' },
    { id: 'ops', name: 'Operations' },
  ],
  forms: {
    bug: { name: 'Bug report', schema: bugSchema, data: { severity: 'low', reporter: 'config' } },
    layered: { schema: layeredSchema, data: { a: 'config', b: 'config', c: 'config', d: 'config' } },
    broken: { schema: { type: 'not-a-type' } },
  },
};

describe('API forms', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ config: CONFIG });
  });
  afterEach(async () => {
    await server.close();
  });

  it('when the workspace forms are listed, then GET /forms gives each form of .kanban.json with its schema and defaults', async () => {
    const forms = okData(await server.api('GET', '/api/forms'));
    assert.deepEqual(Object.keys(forms).sort(), ['broken', 'bug', 'layered']);
    assert.deepEqual(forms.bug.schema, bugSchema);
    assert.deepEqual(forms.bug.data, { severity: 'low', reporter: 'config' });
  });

  for (const board of [undefined, 'ops']) {
    const boardId = board ?? 'default';
    const base = board ? `/api/boards/${board}/tasks` : '/api/tasks';

    describe(board ? `on board "${board}"` : 'on the default board', () => {
      it('when a referenced workspace form is submitted, then 200, formData[<id>] holds the merged data, the card file keeps it and one form.submit event is emitted', async () => {
        const task = await createTask(server, { content: '# Crash on save', forms: [{ name: 'bug' }] }, board);
        let answer: any;
        const events = await eventsDuring(server, async () => {
          answer = await server.api('POST', `${base}/${task.id}/forms/bug/submit`, {
            data: { steps: 'click save', severity: 'high' },
          });
        });
        const result = okData(answer);
        const expected = { severity: 'high', reporter: 'config', steps: 'click save' };
        assert.equal(result.formId, 'bug');
        assert.deepEqual(result.data, expected);
        assert.deepEqual(result.task.formData, { bug: expected });
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}`)).formData, { bug: expected });
        assert.match(await fs.readFile(cardFile(server, boardId, 'backlog', task.id), 'utf8'), /formData:\n\s+bug:\n/);
        assert.deepEqual(
          events.map((e) => e.event),
          ['form.submit'],
        );
        assert.equal(events[0].boardId, boardId);
        assert.deepEqual(events[0].data, { taskId: task.id, formId: 'bug', data: expected });
        assert.deepEqual(events[0].card?.formData, { bug: expected });
      });

      it('when the card does not exist, then 404', async () => {
        failsWith(await server.api('POST', `${base}/no-such-card/forms/bug/submit`, { data: {} }), 404, /no-such-card/);
      });
    });
  }

  describe('resolved form ids', () => {
    it('when a card holds an inline form with a name, then its id is the slug of the name and submissions are stored under it', async () => {
      const task = await createTask(server, {
        content: '# Inline',
        forms: [
          {
            name: 'Release Checklist',
            schema: { type: 'object', properties: { done: { type: 'boolean' } }, required: ['done'] },
          },
        ],
      });
      const result = okData(
        await server.api('POST', `/api/tasks/${task.id}/forms/release-checklist/submit`, { data: { done: true } }),
      );
      assert.equal(result.formId, 'release-checklist');
      assert.deepEqual(result.task.formData, { 'release-checklist': { done: true } });
    });

    it('when an inline form has an explicit id, then that id is used, and its own data act as defaults', async () => {
      const schema = {
        type: 'object',
        properties: { owner: { type: 'string' }, region: { type: 'string' } },
        required: ['owner', 'region'],
      };
      const task = await createTask(server, {
        content: '# Inline id',
        forms: [{ id: 'triage', name: 'Triage step', schema, data: { region: 'eu' } }],
      });
      const result = okData(
        await server.api('POST', `/api/tasks/${task.id}/forms/triage/submit`, { data: { owner: 'ana' } }),
      );
      assert.deepEqual(result.data, { region: 'eu', owner: 'ana' });
      failsWith(
        await server.api('POST', `/api/tasks/${task.id}/forms/triage-step/submit`, { data: { owner: 'x' } }),
        404,
        /triage-step/,
      );
    });

    it('when an inline form has neither id nor name, then it is known by its position as form-<n>', async () => {
      const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
      const task = await createTask(server, { content: '# Anonymous', forms: [{ name: 'bug' }, { schema }] });
      assert.equal(
        okData(await server.api('POST', `/api/tasks/${task.id}/forms/form-2/submit`, { data: { ok: true } })).formId,
        'form-2',
      );
    });

    it('when two forms are submitted on one card, then each keeps its own formData entry', async () => {
      const task = await createTask(server, { content: '# Two forms', forms: [{ name: 'bug' }, { name: 'layered' }] });
      okData(await server.api('POST', `/api/tasks/${task.id}/forms/bug/submit`, { data: { steps: 's' } }));
      okData(await server.api('POST', `/api/tasks/${task.id}/forms/layered/submit`, { data: { e: 'x' } }));
      const formData = okData(await server.api('GET', `/api/tasks/${task.id}`)).formData;
      assert.deepEqual(Object.keys(formData).sort(), ['bug', 'layered']);
      assert.equal(formData.bug.steps, 's');
      assert.equal(formData.layered.e, 'x');
    });
  });

  describe('merge order: config defaults, then card form defaults or saved formData, then card metadata, then submitted data', () => {
    it('when every layer sets overlapping fields, then each later layer wins and untouched fields come from the earliest layer that has them', async () => {
      const task = await createTask(server, {
        content: '# Layers',
        forms: [{ name: 'layered', data: { b: 'card form', c: 'card form', d: 'card form' } }],
        metadata: { c: 'metadata', d: 'metadata', unrelated: 'not a form field' },
      });
      const result = okData(
        await server.api('POST', `/api/tasks/${task.id}/forms/layered/submit`, {
          data: { d: 'submitted', e: 'submitted' },
        }),
      );
      assert.deepEqual(result.data, { a: 'config', b: 'card form', c: 'metadata', d: 'submitted', e: 'submitted' });
    });

    it('when the card already has saved formData, then it wins over config and card form defaults but card metadata and the submission win over it', async () => {
      const task = await createTask(server, {
        content: '# Saved layer',
        forms: [{ name: 'layered', data: { a: 'card form', b: 'card form' } }],
        metadata: { c: 'metadata' },
        formData: { layered: { b: 'saved', c: 'saved', d: 'saved', e: 'saved' } },
      });
      const result = okData(
        await server.api('POST', `/api/tasks/${task.id}/forms/layered/submit`, { data: { e: 'submitted' } }),
      );
      assert.deepEqual(result.data, { a: 'card form', b: 'saved', c: 'metadata', d: 'saved', e: 'submitted' });
    });

    it('when only config defaults exist, then an empty submission stores exactly them', async () => {
      const task = await createTask(server, { content: '# Config only', forms: [{ name: 'layered' }] });
      assert.deepEqual(
        okData(await server.api('POST', `/api/tasks/${task.id}/forms/layered/submit`, { data: {} })).data,
        { a: 'config', b: 'config', c: 'config', d: 'config' },
      );
    });

    it('when a form is submitted twice, then the second submission starts from the saved data of the first', async () => {
      const task = await createTask(server, { content: '# Twice', forms: [{ name: 'layered' }] });
      okData(
        await server.api('POST', `/api/tasks/${task.id}/forms/layered/submit`, { data: { a: 'first', e: 'first' } }),
      );
      const second = okData(
        await server.api('POST', `/api/tasks/${task.id}/forms/layered/submit`, { data: { e: 'second' } }),
      );
      assert.deepEqual(second.data, { a: 'first', b: 'config', c: 'config', d: 'config', e: 'second' });
    });

    it('when card metadata changes between submissions, then the new metadata value is taken over the saved one', async () => {
      const task = await createTask(server, { content: '# Metadata later', forms: [{ name: 'layered' }] });
      okData(await server.api('POST', `/api/tasks/${task.id}/forms/layered/submit`, { data: { c: 'typed' } }));
      okData(await server.api('PUT', `/api/tasks/${task.id}`, { metadata: { c: 'from metadata' } }));
      assert.equal(
        okData(await server.api('POST', `/api/tasks/${task.id}/forms/layered/submit`, { data: {} })).data.c,
        'from metadata',
      );
    });
  });

  describe('validation', () => {
    let task: any;
    beforeEach(async () => {
      task = await createTask(server, {
        content: '# Validated',
        forms: [{ name: 'bug' }],
        formData: { bug: { severity: 'low', steps: 'kept' } },
      });
    });

    const invalid: [string, Record<string, unknown>, RegExp[]][] = [
      ['a field has the wrong type', { count: 'three' }, [/"count"/, /integer/]],
      ['a value is outside the enum', { severity: 'urgent' }, [/"severity"/, /low, medium, high/]],
      ['a number is below its minimum', { count: 0 }, [/"count"/]],
      ['a nested required field is missing', { browser: {} }, [/"browser\.name"/]],
      ['several fields are wrong at once', { severity: 'urgent', count: 'x' }, [/"severity"/, /"count"/]],
    ];
    for (const [what, data, messages] of invalid) {
      it(`when ${what}, then 400 naming every failing field and the saved data is unchanged`, async () => {
        const events = await eventsDuring(server, async () => {
          const error = failsWith(
            await server.api('POST', `/api/tasks/${task.id}/forms/bug/submit`, { data }),
            400,
            /form "bug" is invalid/,
          );
          for (const message of messages) assert.match(error, message);
        });
        assert.deepEqual(events, []);
        assert.deepEqual(okData(await server.api('GET', `/api/tasks/${task.id}`)).formData, {
          bug: { severity: 'low', steps: 'kept' },
        });
      });
    }

    it('when a required field is in no layer at all, then 400 naming it', async () => {
      const bare = await createTask(server, { content: '# Bare', forms: [{ name: 'bug' }] });
      failsWith(
        await server.api('POST', `/api/tasks/${bare.id}/forms/bug/submit`, { data: { severity: 'low' } }),
        400,
        /"steps" is required/,
      );
    });

    it('when the form id is unknown, then 404 naming it and the forms the card offers', async () => {
      failsWith(await server.api('POST', `/api/tasks/${task.id}/forms/nope/submit`, { data: {} }), 404, /"nope".*bug/);
    });

    it('when the card references a workspace form that does not exist, then submitting it is 404', async () => {
      const dangling = await createTask(server, { content: '# Dangling', forms: [{ name: 'ghost' }] });
      failsWith(await server.api('POST', `/api/tasks/${dangling.id}/forms/ghost/submit`, { data: {} }), 404, /ghost/);
    });

    it('when the form schema itself is not a valid JSON schema, then 400 saying so, never 500', async () => {
      const card = await createTask(server, { content: '# Broken schema', forms: [{ name: 'broken' }] });
      failsWith(await server.api('POST', `/api/tasks/${card.id}/forms/broken/submit`, { data: {} }), 400, /schema/);
    });

    const badBodies: [string, unknown][] = [
      ['data is missing', {}],
      ['data is an array', { data: [1] }],
      ['data is a string', { data: 'severity=high' }],
      ['an unknown field is sent', { data: {}, formId: 'bug' }],
    ];
    for (const [what, body] of badBodies) {
      it(`when ${what}, then 400`, async () => {
        failsWith(await server.api('POST', `/api/tasks/${task.id}/forms/bug/submit`, body), 400, /data|formId/);
      });
    }
  });
});
