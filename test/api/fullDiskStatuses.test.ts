import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { call, MOUNTED } from '../helpers/operations';
import { Fixture, REQUESTS } from '../auth/helpers/routeRequests';
import { fillUp, mountTmpfs, unmount } from '../helpers/tmpfs';

/**
 * Every write of the document, sent with a valid request while the disk under the workspace is full:
 * each must answer the 507 it declares (nothing half-written, a message that says to free space),
 * unless it never needs the disk. Each request is prepared while there is room, then sent when there is none.
 */

/** Writes that need no new space, with what they answer on a full disk and why. */
const NEEDS_NO_SPACE: Record<string, { status: number; why: string }> = {};
const noSpace = (keys: string[], status: number, why: string) => {
  for (const key of keys)
    for (const twin of [key, key.replace(' /', ' /boards/{boardId}/')]) NEEDS_NO_SPACE[twin] = { status, why };
};
noSpace(['POST /tasks/{id}/actions/{action}'], 204, 'it only announces the action');
NEEDS_NO_SPACE['POST /boards/{boardId}/actions/{key}/trigger'] = { status: 204, why: 'it only announces the action' };
noSpace(
  ['DELETE /tasks/{id}/permanent', 'DELETE /tasks/{id}/attachments/{filename}'],
  200,
  'it removes a file first, which frees the room its own small rewrite needs',
);
noSpace(['DELETE /tasks/{id}/logs'], 200, 'emptying a log frees space');
NEEDS_NO_SPACE['DELETE /boards/{boardId}/logs'] = { status: 200, why: 'emptying a log frees space' };
noSpace(
  ['POST /tasks/{id}/open', 'POST /tasks/{id}/read'],
  200,
  'it appends a few hundred bytes to the read-state journal, which fit in its last block unless that is full (then 507)',
);
NEEDS_NO_SPACE['POST /workspace/doctor/fix'] = {
  status: 200,
  why: 'a board with nothing to repair: it writes nothing',
};
NEEDS_NO_SPACE['POST /storage/migrate-to-markdown'] = {
  status: 400,
  why: 'the cards are in Markdown here (the migration to SQLite before it was refused for want of space)',
};

/** Valid requests that would write nothing as the role matrix sends them (a dry run), made to write. */
const MADE_TO_WRITE: Record<string, (body: any) => unknown> = {
  'POST /import': (body) => ({ ...body, apply: true }),
};

describe('API statuses: every write on a full disk answers the 507 it declares', function () {
  this.timeout(120_000);
  let dir: string;
  let server: TestServer;
  let mounted = false;
  let fixture: Fixture;

  before(async () => {
    dir = await makeTempDir('kanban-full-ops-');
    const problem = mountTmpfs(dir, 'size=16m');
    if (problem) throw new Error(`this suite needs root with CAP_SYS_ADMIN to mount a tmpfs (as CI has): ${problem}`);
    mounted = true;
    server = await startTestServer({
      root: dir,
      config: {
        version: 2,
        boards: [
          { id: 'default', name: 'Default', actions: { deploy: 'Deploy' } },
          { id: 'ops', name: 'Operations', actions: { deploy: 'Deploy' } },
        ],
        forms: { bug: { name: 'Bug report', schema: { type: 'object' } } },
      },
    });
    fixture = new Fixture(server, '');
    await fixture.seed();
  });

  after(async () => {
    // Not server.close(): it would remove the mount point while it is mounted.
    await server?.running.close();
    if (mounted) unmount(dir);
    await fs.rm(dir, { recursive: true, force: true });
    await fixture?.dropDatabases();
  });

  it('when each write is sent, then it answers 507 saying the disk is full, unless it needs no new space', async () => {
    const wrong: string[] = [];
    for (const op of MOUNTED.filter((m) => m.route.method !== 'get')) {
      // Prepared while there is room (it may make a throwaway card), sent when there is none.
      const request = await REQUESTS[op.requestKey](fixture, op.scope);
      const giveRoomBack = fillUp(dir);
      const answer = await call(server, {
        method: op.route.method.toUpperCase(),
        path: request.path,
        body:
          request.body === undefined
            ? undefined
            : JSON.stringify((MADE_TO_WRITE[op.requestKey] ?? ((b) => b))(request.body)),
      });
      giveRoomBack();
      const key = op.key;
      const expected = NEEDS_NO_SPACE[key]?.status ?? 507;
      const fullAnswer = answer.status === 507 && /disk full/.test(answer.text);
      // A write that needs no new space may still be refused for want of it (a journal's last block
      // full): then too it must be the 507 that says so.
      if (!fullAnswer && answer.status !== expected)
        wrong.push(`${key}: ${answer.status} ${answer.text.slice(0, 160)}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('when a write needs no space, then the reason is written down', () => {
    for (const [key, { why }] of Object.entries(NEEDS_NO_SPACE)) assert.ok(why.length > 10, key);
  });
});
