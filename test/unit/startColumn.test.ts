import { strict as assert } from 'node:assert';
import Ajv from 'ajv';
import { kanbanConfigSchema } from '../../server/config/configSchema';
import { ConfigError, parseConfig, serializeConfig } from '../../server/config/parseConfig';
import type { Column } from '../../server/core/model';
import { startColumnOf } from '../../server/core/startColumn';

const column = (id: string, name = id): Column => ({ id, name, color: '#6b7280' });

describe('start column: where kanban start moves a card', () => {
  it('when the board sets startStatus, then that column is the start column, wherever it is', () => {
    const columns = [column('todo'), column('in-progress'), column('review')];
    assert.equal(startColumnOf(columns, 'review')?.id, 'review');
  });

  it('when startStatus names no column of the board, then there is no start column (not a guess)', () => {
    assert.equal(startColumnOf([column('todo'), column('doing')], 'nowhere'), undefined);
  });

  for (const [what, columns, expected] of [
    ['an id in-progress', [column('backlog'), column('todo'), column('in-progress'), column('done')], 'in-progress'],
    ['an id in_progress', [column('backlog'), column('todo'), column('in_progress')], 'in_progress'],
    ['a name "In Progress" over another id', [column('new'), column('ready'), column('c3', 'In Progress')], 'c3'],
    ['a name "DOING"', [column('a'), column('b'), column('c', 'DOING')], 'c'],
    ['an id wip', [column('queue'), column('next'), column('wip')], 'wip'],
    ['a name "Started"', [column('a'), column('b'), column('c', 'Started')], 'c'],
    ['an id active, before a later doing', [column('a'), column('b'), column('active'), column('doing')], 'active'],
  ] as const) {
    it(`when no startStatus is set and a column has ${what}, then it is the start column`, () => {
      assert.equal(startColumnOf(columns as unknown as Column[])?.id, expected);
    });
  }

  it('when no column reads as in progress, then the second column is the start column ("Not started" does not count)', () => {
    assert.equal(startColumnOf([column('inbox', 'Not started'), column('next'), column('done')])?.id, 'next');
  });

  it('when the board has one column, then it is the start column; with none, there is none', () => {
    assert.equal(startColumnOf([column('only')])?.id, 'only');
    assert.equal(startColumnOf([]), undefined);
  });
});

describe('config: startStatus of a board', () => {
  const board = {
    id: 'ops',
    name: 'Ops',
    columns: [
      { id: 'queue', name: 'Queue' },
      { id: 'fixing', name: 'Fixing' },
      { id: 'done', name: 'Done' },
    ],
  };

  it('when a board sets startStatus to one of its columns, then it is read and written back in place, after defaultStatus', () => {
    const config = parseConfig(
      JSON.stringify({ version: 2, boards: [{ ...board, defaultStatus: 'queue', startStatus: 'fixing' }] }),
    );
    assert.equal(config.boards[0].startStatus, 'fixing');
    const written = JSON.parse(serializeConfig(config));
    assert.equal(written.boards[0].startStatus, 'fixing');
    assert.deepEqual(Object.keys(written.boards[0]).slice(0, 5), [
      'id',
      'name',
      'columns',
      'defaultStatus',
      'startStatus',
    ]);
    assert.deepEqual(parseConfig(serializeConfig(config)), config, 'a second round trip changes nothing');
  });

  it('when a board does not set startStatus, then the written board has no startStatus key', () => {
    const written = JSON.parse(serializeConfig(parseConfig(JSON.stringify({ boards: [board] }))));
    assert.equal('startStatus' in written.boards[0], false);
  });

  it('when startStatus names a column the board does not have, then loading refuses it at its JSON path, naming the columns', () => {
    const text = JSON.stringify({ boards: [{ id: 'default' }, { ...board, startStatus: 'in-progress' }] });
    assert.throws(
      () => parseConfig(text),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.jsonPath, '$.boards[1].startStatus');
        assert.match(error.problem, /"in-progress" is not a column of board "ops" \(columns: queue, fixing, done\)/);
        return true;
      },
    );
  });

  it('when startStatus is not a string, then loading refuses it', () => {
    assert.throws(
      () => parseConfig(JSON.stringify({ boards: [{ ...board, startStatus: 2 }] })),
      /\$\.boards\[0\]\.startStatus: must be a string/,
    );
  });

  it('when the editor schema checks a board with startStatus, then it accepts a column id and refuses a number', () => {
    const validate = new Ajv({ strict: false }).compile(kanbanConfigSchema());
    assert.ok(validate({ boards: [{ ...board, startStatus: 'fixing' }] }), JSON.stringify(validate.errors));
    assert.equal(validate({ boards: [{ ...board, startStatus: 2 }] }), false);
  });
});
