import { strict as assert } from 'node:assert';
import { flattenMetadata, pathProblem, removeAtPath, setAtPath } from '../../webview/components/drawer/metadataPaths';

describe('metadata as key paths (drawer)', () => {
  const metadata = { links: { jira: 'ABC-1', pr: 12 }, owner: 'platform', tags: ['a', 'b'], empty: {} };

  it('when metadata is nested, then each leaf is one path; lists and empty maps stay one value', () => {
    assert.deepEqual(flattenMetadata(metadata), [
      ['links.jira', 'ABC-1'],
      ['links.pr', 12],
      ['owner', 'platform'],
      ['tags', ['a', 'b']],
      ['empty', {}],
    ]);
  });

  it('when a path is set, then maps are created on the way and siblings are kept, without touching the original', () => {
    assert.deepEqual(setAtPath(metadata, 'links.jira', 'ABC-2').links, { jira: 'ABC-2', pr: 12 });
    assert.deepEqual(setAtPath({}, 'a.b.c', true), { a: { b: { c: true } } });
    assert.equal(metadata.links.jira, 'ABC-1');
  });

  it('when the last key of a map is removed, then the map goes too', () => {
    const once = removeAtPath({ review: { by: 'x' }, keep: 1 }, 'review.by');
    assert.deepEqual(once, { keep: 1 });
    assert.deepEqual(removeAtPath(metadata, 'links.pr').links, { jira: 'ABC-1' });
    assert.equal(removeAtPath(metadata, 'nope.x'), metadata);
  });

  it('when a new path is taken, under a plain value, over a map or has an empty part, then it says why', () => {
    assert.match(pathProblem(metadata, 'links.jira') ?? '', /already a key/);
    assert.match(pathProblem(metadata, 'owner.team') ?? '', /“owner” holds a value/);
    assert.match(pathProblem(metadata, 'links') ?? '', /already holds keys/);
    assert.match(pathProblem(metadata, 'a..b') ?? '', /empty part/);
    assert.equal(pathProblem(metadata, 'links.sprint'), null);
  });
});
