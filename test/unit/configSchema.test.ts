import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { kanbanConfigSchema } from '../../server/config/configSchema';
import { kanbanConfig } from '../../server/config/configShapes';
import { defaultConfig, parseConfig, serializeConfig } from '../../server/config/parseConfig';

const valid: Record<string, unknown> = {
  'the docs/storage.md example': {
    version: 2,
    defaultBoard: 'default',
    boards: [
      {
        id: 'default',
        name: 'Default',
        columns: [{ id: 'backlog', name: 'Backlog', color: '#6b7280' }],
        defaultStatus: 'backlog',
        defaultPriority: 'medium',
        actions: { deploy: 'Deploy' },
        minimizedColumnIds: [],
      },
    ],
    settings: { compactMode: false, boardBackgroundMode: 'fancy', boardBackgroundPreset: 'aurora' },
    labels: { bug: { color: '#ef4444', group: 'type' } },
    forms: { 'bug-report': { schema: { type: 'object' }, data: { severity: 'low' } } },
    webhooks: [{ id: 'wh1', url: 'https://example.com/hook', events: ['task.*'], secret: '${HOOK_SECRET}' }],
    plugins: { 'card.storage': { provider: 'markdown', options: {} } },
    server: { allowedOrigins: ['http://localhost:5173'] },
  },
  'the version 1 layout': {
    version: 1,
    columns: [{ id: 'todo', name: 'To Do' }],
    defaultPriority: 'high',
    storage: { 'card.storage': { provider: 'markdown', config: {} } },
  },
  'boards keyed by id': { boards: { ops: { name: 'Ops' } } },
  'a key of another tool': { version: 2, 'x-other-tool': { anything: true } },
  'a setting of a newer version': { settings: { someFutureSetting: 3 } },
  'an empty file': {},
  'WIP limits, a block policy and auto-archive': {
    boards: [
      {
        id: 'default',
        columns: [{ id: 'doing', wipLimit: 3 }, { id: 'done' }],
        wipPolicy: 'block',
        autoArchiveDays: 14,
      },
    ],
  },
};

const invalid: Record<string, unknown> = {
  'a priority outside the list': { boards: [{ id: 'default', defaultPriority: 'urgent' }] },
  'a column id with capitals': { boards: [{ id: 'default', columns: [{ id: 'To Do' }] }] },
  'the reserved column id': { boards: [{ id: 'default', columns: [{ id: 'deleted' }] }] },
  'the archive folder as a column id': { boards: [{ id: 'default', columns: [{ id: 'archived' }] }] },
  'a WIP limit of 0': { boards: [{ id: 'default', columns: [{ id: 'doing', wipLimit: 0 }] }] },
  'a fractional WIP limit': { boards: [{ id: 'default', columns: [{ id: 'doing', wipLimit: 2.5 }] }] },
  'an unknown WIP policy': { boards: [{ id: 'default', wipPolicy: 'stop' }] },
  'auto-archive after 0 days': { boards: [{ id: 'default', autoArchiveDays: 0 }] },
  'a board without id': { boards: [{ name: 'Nameless' }] },
  'an unknown background mode': { settings: { boardBackgroundMode: 'native' } },
  'a setting of the wrong type': { settings: { compactMode: 'yes' } },
  'a label without color': { labels: { bug: { group: 'type' } } },
  'webhooks as an object': { webhooks: { id: 'x' } },
  'a plugin without provider': { plugins: { 'card.storage': { options: {} } } },
  'version 3': { version: 3 },
  'boards as a string': { boards: 'default' },
};

describe('the .kanban.json JSON schema for editors', () => {
  const validate = new Ajv({ strict: false }).compile(kanbanConfigSchema());

  for (const [what, doc] of Object.entries(valid)) {
    it(`when the service accepts ${what}, then the schema accepts it too`, () => {
      parseConfig(JSON.stringify(doc));
      assert.ok(validate(doc), JSON.stringify(validate.errors));
    });
  }

  for (const [what, doc] of Object.entries(invalid)) {
    it(`when the service refuses ${what}, then the schema refuses it too`, () => {
      assert.throws(() => parseConfig(JSON.stringify(doc)));
      assert.equal(validate(doc), false);
    });
  }

  for (const [what, doc] of Object.entries(valid)) {
    it(`when the service reads ${what}, then what it holds is the shape the configuration types come from`, () => {
      const held = new Ajv({ strict: false }).compile(kanbanConfig);
      assert.ok(held(parseConfig(JSON.stringify(doc))), JSON.stringify(held.errors));
    });
  }

  it('when the service writes a configuration, then the schema accepts it', () => {
    assert.ok(validate(JSON.parse(serializeConfig(defaultConfig()))), JSON.stringify(validate.errors));
  });

  it('when the extension is built, then dist/kanban.schema.json is this schema and package.json points .kanban.json at it', () => {
    const root = path.resolve(__dirname, '../..');
    const built = JSON.parse(readFileSync(path.join(root, 'dist/kanban.schema.json'), 'utf8'));
    assert.deepEqual(built, kanbanConfigSchema());
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    assert.deepEqual(manifest.contributes.jsonValidation, [
      { fileMatch: '.kanban.json', url: './dist/kanban.schema.json' },
    ]);
  });
});
