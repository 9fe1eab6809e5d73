import { strict as assert } from 'node:assert';
import { CardIndex } from '../../server/core/cardIndex';
import { placeOf } from '../../server/core/cardPlace';
import { ARCHIVED_STATUS } from '../../server/core/shapes/vocabulary';
import { parseCard, serializeCard } from '../../server/storage/cardFile';
import { makeCard } from '../helpers/cards';

const AT = '2026-03-01T12:00:00.000Z';

describe('archived cards in the index and in card files', () => {
  it('when a card is archived, then its column leaves it out, the archive holds it, and its status stays', () => {
    const index = new CardIndex();
    const open = makeCard({ id: 'open-2026-01-01', status: 'todo', order: '1' });
    const shelved = makeCard({ id: 'shelved-2026-01-01', status: 'todo', order: '2', archivedAt: AT });
    index.put(open);
    index.put(shelved);
    assert.deepEqual(
      index.column('default', 'todo').map((c) => c.id),
      [open.id],
    );
    assert.deepEqual(
      index.column('default', ARCHIVED_STATUS).map((c) => c.id),
      [shelved.id],
    );
    assert.equal(index.positionOf(shelved), 0, 'its place is in the archive');
    assert.deepEqual([...index.statusesOf('default')].sort(), ['archived', 'todo']);
    assert.equal(placeOf(shelved), ARCHIVED_STATUS);
    assert.equal(shelved.status, 'todo');
  });

  it('when an archived card is put back without archivedAt, then it returns to its column in order', () => {
    const index = new CardIndex();
    const first = makeCard({ id: 'first-2026-01-01', status: 'todo', order: '1' });
    const second = makeCard({ id: 'second-2026-01-01', status: 'todo', order: '2', archivedAt: AT });
    index.put(first);
    index.put(second);
    index.column('default', 'todo');
    index.put({ ...second, archivedAt: undefined });
    assert.deepEqual(
      index.column('default', 'todo').map((c) => c.id),
      [first.id, second.id],
    );
    assert.deepEqual(index.column('default', ARCHIVED_STATUS), []);
  });

  it('when a card file is read from archived/, then it is archived with its own status; read from a status folder, it is not, whatever its frontmatter says', () => {
    const text = serializeCard(makeCard({ status: 'review', archivedAt: AT }));
    const inArchive = parseCard(text, {
      id: 'sample-card-2026-01-01',
      boardId: 'default',
      status: ARCHIVED_STATUS,
      fileTime: '2026-04-01T00:00:00.000Z',
    });
    assert.equal(inArchive.status, 'review');
    assert.equal(inArchive.archivedAt, AT);
    const movedOut = parseCard(text, {
      id: 'sample-card-2026-01-01',
      boardId: 'default',
      status: 'review',
      fileTime: '2026-04-01T00:00:00.000Z',
    });
    assert.equal(movedOut.archivedAt, undefined);
    const handMoved = parseCard(serializeCard(makeCard({ status: 'done' })), {
      id: 'sample-card-2026-01-01',
      boardId: 'default',
      status: ARCHIVED_STATUS,
      fileTime: '2026-04-01T00:00:00.000Z',
    });
    assert.equal(
      handMoved.archivedAt,
      '2026-04-01T00:00:00.000Z',
      'a file moved in by hand is archived since its file time',
    );
  });
});
