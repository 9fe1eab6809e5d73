import { strict as assert } from 'node:assert';
import { closestKey, unknownConfigKeys, unknownConfigKeysIn } from '../../server/config/unknownKeys';
import { parseConfig } from '../../server/config/parseConfig';

describe('unknown keys of .kanban.json', () => {
  it('when a file uses only known keys, then there is no warning', () => {
    const doc = {
      $schema: './node_modules/repo-kanban/dist/kanban.schema.json',
      version: 2,
      defaultBoard: 'default',
      boards: [
        {
          id: 'default',
          name: 'Default',
          columns: [{ id: 'doing', wipLimit: 3 }],
          wipPolicy: 'block',
          autoArchiveDays: 7,
        },
      ],
      settings: { compactMode: true },
      labels: { bug: { color: '#ef4444', group: 'type' } },
      forms: {
        bug: { schema: { type: 'object', properties: { severity: { type: 'string' } } }, data: { severity: 'low' } },
      },
      views: [{ id: 'mine', board: 'default', filter: { assignee: 'ada', 'meta.sprint': 's1' } }],
      plugins: {
        'card.storage': { provider: 'sqlite', options: { pollIntervalMs: 200, anyOptionThePluginHas: true } },
      },
      server: { allowedOrigins: [] },
    };
    assert.deepEqual(unknownConfigKeys(doc), []);
  });

  it('when keys are misspelled at several levels, then each is named with its path and the closest known key', () => {
    const doc = {
      defualtBoard: 'default',
      boards: [{ id: 'default', columns: [{ id: 'doing', wipLimt: 3 }], wipPolicy: 'warn', autoArchiveDay: 7 }],
      settings: { compactmode: true },
      labels: { bug: { colour: '#ef4444' } },
      webhooks: [{ id: 'w', url: 'https://example.com', event: ['task.*'] }],
      plugins: { 'card.storage': { provider: 'sqlite', option: {} } },
    };
    assert.deepEqual(unknownConfigKeys(doc), [
      '.kanban.json: unknown key $.defualtBoard (did you mean "defaultBoard"?)',
      '.kanban.json: unknown key $.boards[0].columns[0].wipLimt (did you mean "wipLimit"?)',
      '.kanban.json: unknown key $.boards[0].autoArchiveDay (did you mean "autoArchiveDays"?)',
      '.kanban.json: unknown key $.settings.compactmode (did you mean "compactMode"?)',
      '.kanban.json: unknown key $.labels.bug.colour (did you mean "color"?)',
      '.kanban.json: unknown key $.webhooks[0].event (did you mean "events"?)',
      '.kanban.json: unknown key $.plugins.card.storage.option (did you mean "options"?)',
    ]);
  });

  it('when the older boards-by-id layout has a typo, then its path uses the board id', () => {
    assert.deepEqual(unknownConfigKeys({ boards: { ops: { nmae: 'Ops' } } }), [
      '.kanban.json: unknown key $.boards.ops.nmae (did you mean "name"?)',
    ]);
  });

  it('when a nested key is far from every known key, then the known keys there are listed', () => {
    assert.deepEqual(unknownConfigKeys({ server: { trustProxy: true } }), [
      '.kanban.json: unknown key $.server.trustProxy (known keys here: allowedOrigins)',
    ]);
  });

  it('when another tool keeps its own top-level section, then it is left alone, but a near miss of a known one is named', () => {
    assert.deepEqual(unknownConfigKeys({ 'x-other-tool': { anything: true }, prettier: {} }), []);
    assert.deepEqual(unknownConfigKeys({ lables: {} }), [
      '.kanban.json: unknown key $.lables (did you mean "labels"?)',
    ]);
  });

  it('when a file with unknown keys is parsed, then it is still accepted', () => {
    const text = JSON.stringify({ boards: [{ id: 'default', columns: [{ id: 'doing', wipLimt: 3 }] }] });
    assert.equal(parseConfig(text).boards[0].columns[0].id, 'doing');
    assert.equal(unknownConfigKeysIn(text).length, 1);
    assert.deepEqual(unknownConfigKeysIn('{ not json'), []);
    assert.deepEqual(unknownConfigKeysIn(null), []);
  });

  it('when a key is nowhere near the known ones, then no closest key is claimed', () => {
    assert.equal(closestKey('zzz', ['labels', 'boards']), undefined);
    assert.equal(closestKey('Boards', ['labels', 'boards']), 'boards');
  });
});
