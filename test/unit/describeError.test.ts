import { strict as assert } from 'node:assert';
import { describeError } from '../../server/api/errors';

/** An error as Node's fs calls make them: a code, and usually the syscall and path. */
function errno(code: string, fields: { syscall?: string; path?: string } = {}): Error {
  return Object.assign(new Error(`${code}: some text that must not matter`), { code, ...fields });
}

describe('describeError: errors of the environment', () => {
  it('when a write fails with ENOSPC or EDQUOT, then 507 says "disk full" and names the path', () => {
    for (const code of ['ENOSPC', 'EDQUOT']) {
      const { status, message } = describeError(
        errno(code, { syscall: 'write', path: '/w/.kanban/boards/default/todo/a.md' }),
      );
      assert.equal(status, 507);
      assert.match(message, /^disk full: could not write "\/w\/\.kanban\/boards\/default\/todo\/a\.md"/);
    }
  });

  it('when ENOSPC names no path, or SQLite reports SQLITE_FULL, then it is still 507 "disk full"', () => {
    assert.equal(describeError(errno('ENOSPC')).status, 507);
    assert.match(describeError(errno('SQLITE_FULL')).message, /^disk full/);
  });

  it('when a path is too long, then 400 quotes only its ends and its length', () => {
    const long = `/w/${'x'.repeat(100_000)}.db`;
    const { status, message } = describeError(errno('ENAMETOOLONG', { syscall: 'open', path: long }));
    assert.equal(status, 400);
    assert.match(message, /path too long/);
    assert.match(message, /\(100006 characters\)/);
    assert.ok(message.length < 300, `${message.length} characters`);
  });

  it('when a file-system call rejects a path with EINVAL, then 400; an EINVAL without a path stays a 500', () => {
    assert.equal(describeError(errno('EINVAL', { syscall: 'open', path: '/w/a:b' })).status, 400);
    assert.equal(describeError(errno('EINVAL')).status, 500);
  });

  it('when only the message mentions ENOSPC, then it is an ordinary 500', () => {
    assert.equal(describeError(new Error('ENOSPC: no space left on device')).status, 500);
  });
});
