import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { TestServer } from '../../helpers/testServer';
import { send } from './authWorkspace';
import { createTestDatabase, mysqlPlugin } from '../../storage/helpers/mysql';
import { createPostgresTestDatabase, postgresPlugin } from '../../storage/helpers/postgres';

/** A request ready to send, and the status it gets when the caller is allowed. */
export interface Prepared {
  path: string;
  body?: unknown;
  success: 200 | 201 | 204;
}

/** Which board a call acts on: the default board through the unscoped path, or a twin's board. */
export interface Scope {
  board: string;
  /** `/api` or `/api/boards/<board>`: what `/tasks...` and `/columns...` paths hang off. */
  prefix: string;
}

interface Seeded {
  cardId: string;
  commentId: string;
  attachment: string;
}

const FILE = Buffer.from('plain text attachment\n').toString('base64');

/**
 * Real objects for every path parameter: a card (with a form, an action, a comment and an
 * attachment) on each board, a webhook, a label. Destructive calls get throwaway objects made by
 * the admin first, so every caller meets the same situation.
 */
export class Fixture {
  private counter = 0;
  private seeded = new Map<string, Seeded>();
  webhookId = '';
  /** The seeded webhook's signing secret: it must never come back in any answer. */
  readonly webhookSecret = `whsec-${randomBytes(12).toString('hex')}`;

  constructor(
    private readonly server: TestServer,
    private readonly adminToken: string,
  ) {}

  private databases: { drop(): Promise<void> }[] = [];

  /** The options of a fresh, empty database for a migration into it; dropped by `dropDatabases`. */
  async emptyDatabase(provider: 'postgres' | 'mysql'): Promise<Record<string, unknown>> {
    const database = provider === 'postgres' ? await createPostgresTestDatabase() : await createTestDatabase();
    this.databases.push(database);
    return (provider === 'postgres' ? postgresPlugin : mysqlPlugin)(database.name).options;
  }

  /** After the server is closed: a database it still used could not be dropped. */
  async dropDatabases(): Promise<void> {
    for (const database of this.databases.splice(0)) await database.drop().catch(() => undefined);
  }

  unique(prefix: string): string {
    return `${prefix}-${++this.counter}`;
  }

  /** An admin call that must succeed; returns its data. */
  async admin(method: string, path: string, body?: unknown): Promise<any> {
    const answer = await send(this.server, method, path, { token: this.adminToken, body });
    assert.ok(
      answer.status >= 200 && answer.status < 300,
      `set-up ${method} ${path} failed: ${answer.status} ${answer.text}`,
    );
    return answer.body?.data;
  }

  async seed(): Promise<void> {
    for (const board of ['default', 'ops']) {
      const base = `/api/boards/${board}/tasks`;
      const card = await this.admin('POST', base, {
        content: '# Seeded card',
        forms: [{ name: 'bug' }],
        actions: ['deploy'],
      });
      const comment = await this.admin('POST', `${base}/${card.id}/comments`, { author: 'ada', content: 'first' });
      await this.admin('POST', `${base}/${card.id}/attachments`, { files: [{ name: 'notes.txt', data: FILE }] });
      this.seeded.set(board, { cardId: card.id, commentId: comment.id, attachment: 'notes.txt' });
    }
    this.webhookId = (
      await this.admin('POST', '/api/webhooks', {
        url: 'http://127.0.0.1:9/hook',
        events: ['storage.migrated'],
        secret: this.webhookSecret,
      })
    ).id;
  }

  card(board: string): string {
    return this.seeded.get(board)!.cardId;
  }

  comment(board: string): string {
    return this.seeded.get(board)!.commentId;
  }

  attachment(board: string): string {
    return this.seeded.get(board)!.attachment;
  }

  async throwawayCard(board: string): Promise<string> {
    return (await this.admin('POST', `/api/boards/${board}/tasks`, { content: `# ${this.unique('Throwaway')}` })).id;
  }

  async columnIds(board: string): Promise<string[]> {
    return (await this.admin('GET', `/api/boards/${board}/columns`)).map((c: { id: string }) => c.id);
  }
}

type Builder = (fx: Fixture, scope: Scope) => Promise<Prepared> | Prepared;

const tasks = (s: Scope) => `${s.prefix}/tasks`;
const seededCard = (fx: Fixture, s: Scope) => `${tasks(s)}/${fx.card(s.board)}`;

/**
 * How to call each route (keyed by method and unscoped path; a twin is called on board "ops").
 * Bodies are valid, so an allowed caller gets the route's own success status.
 */
export const REQUESTS: Record<string, Builder> = {
  'GET /boards': () => ({ path: '/api/boards', success: 200 }),
  'POST /boards': (fx) => ({ path: '/api/boards', body: { id: fx.unique('made'), name: 'Made' }, success: 201 }),
  'GET /boards/{boardId}': () => ({ path: '/api/boards/ops', success: 200 }),
  'PUT /boards/{boardId}': () => ({ path: '/api/boards/ops', body: { description: 'changed' }, success: 200 }),
  'DELETE /boards/{boardId}': async (fx) => {
    const id = fx.unique('doomed');
    await fx.admin('POST', '/api/boards', { id, name: 'Doomed' });
    return { path: `/api/boards/${id}`, success: 200 };
  },
  'GET /boards/{boardId}/actions': () => ({ path: '/api/boards/ops/actions', success: 200 }),
  'POST /boards/{boardId}/actions': () => ({
    path: '/api/boards/ops/actions',
    body: { actions: { deploy: 'Deploy', audit: 'Audit' } },
    success: 200,
  }),
  'PUT /boards/{boardId}/actions/{key}': () => ({
    path: '/api/boards/ops/actions/audit',
    body: { title: 'Audit all' },
    success: 200,
  }),
  'DELETE /boards/{boardId}/actions/{key}': async (fx) => {
    const key = fx.unique('tmp');
    await fx.admin('PUT', `/api/boards/ops/actions/${key}`, { title: 'Temporary' });
    return { path: `/api/boards/ops/actions/${key}`, success: 204 };
  },
  'POST /boards/{boardId}/actions/{key}/trigger': () => ({
    path: '/api/boards/ops/actions/deploy/trigger',
    success: 204,
  }),

  'GET /columns': (_fx, s) => ({ path: `${s.prefix}/columns`, success: 200 }),
  'POST /columns': (fx, s) => ({
    path: `${s.prefix}/columns`,
    body: { id: fx.unique('col'), name: 'Made' },
    success: 201,
  }),
  'PUT /columns/reorder': async (fx, s) => ({
    path: `${s.prefix}/columns/reorder`,
    body: { columnIds: await fx.columnIds(s.board) },
    success: 200,
  }),
  'PUT /columns/minimized': (_fx, s) => ({
    path: `${s.prefix}/columns/minimized`,
    body: { columnIds: [] },
    success: 200,
  }),
  'PUT /columns/{columnId}': (_fx, s) => ({ path: `${s.prefix}/columns/todo`, body: { name: 'To do' }, success: 200 }),
  'DELETE /columns/{columnId}': async (fx, s) => {
    const id = fx.unique('gone');
    await fx.admin('POST', `/api/boards/${s.board}/columns`, { id, name: 'Gone' });
    return { path: `${s.prefix}/columns/${id}`, success: 200 };
  },

  'GET /tasks': (_fx, s) => ({ path: tasks(s), success: 200 }),
  'POST /tasks': (_fx, s) => ({ path: tasks(s), body: { content: '# Made here' }, success: 201 }),
  'GET /tasks/active': (_fx, s) => ({ path: `${tasks(s)}/active`, success: 200 }),
  'GET /tasks/{id}': (fx, s) => ({ path: seededCard(fx, s), success: 200 }),
  'PUT /tasks/{id}': (fx, s) => ({ path: seededCard(fx, s), body: { priority: 'high' }, success: 200 }),
  'DELETE /tasks/{id}': async (fx, s) => ({ path: `${tasks(s)}/${await fx.throwawayCard(s.board)}`, success: 200 }),
  'DELETE /tasks/{id}/permanent': async (fx, s) => ({
    path: `${tasks(s)}/${await fx.throwawayCard(s.board)}/permanent`,
    success: 200,
  }),
  'PATCH /tasks/{id}/move': (fx, s) => ({ path: `${seededCard(fx, s)}/move`, body: { status: 'todo' }, success: 200 }),
  'POST /tasks/{id}/archive': async (fx, s) => ({
    path: `${tasks(s)}/${await fx.throwawayCard(s.board)}/archive`,
    success: 200,
  }),
  'POST /tasks/{id}/restore': async (fx, s) => {
    const id = await fx.throwawayCard(s.board);
    await fx.admin('POST', `/api/boards/${s.board}/tasks/${id}/archive`);
    return { path: `${tasks(s)}/${id}/restore`, body: {}, success: 200 };
  },
  'POST /columns/{columnId}/archive': async (fx, s) => {
    // A column of its own, so archiving all of it never touches the seeded card.
    const column = fx.unique('shelf');
    await fx.admin('POST', `/api/boards/${s.board}/columns`, { id: column, name: 'Shelf' });
    await fx.admin('POST', `/api/boards/${s.board}/tasks`, { content: `# ${fx.unique('Shelved')}`, status: column });
    return { path: `${s.prefix}/columns/${column}/archive`, success: 200 };
  },
  'POST /tasks/bulk': async (fx, s) => ({
    path: `${tasks(s)}/bulk`,
    body: { ids: [await fx.throwawayCard(s.board), await fx.throwawayCard(s.board)], change: { priority: 'high' } },
    success: 200,
  }),
  // Each pick gets a card of its own to take, so every allowed caller finds one (200, not 204).
  'POST /tasks/pick': async (fx, s) => {
    await fx.throwawayCard(s.board);
    return { path: `${tasks(s)}/pick`, body: { agent: fx.unique('picker') }, success: 200 };
  },
  'POST /tasks/{id}/claim': async (fx, s) => ({
    path: `${tasks(s)}/${await fx.throwawayCard(s.board)}/claim`,
    body: { agent: 'matrix-agent', ttlSeconds: 60 },
    success: 200,
  }),
  'DELETE /tasks/{id}/claim': async (fx, s) => {
    const id = await fx.throwawayCard(s.board);
    await fx.admin('POST', `${tasks(s)}/${id}/claim`, { agent: 'matrix-agent' });
    return { path: `${tasks(s)}/${id}/claim`, success: 200 };
  },
  'PUT /tasks/{id}/session': async (fx, s) => ({
    path: `${tasks(s)}/${await fx.throwawayCard(s.board)}/session`,
    body: { agent: 'matrix-agent', state: 'active' },
    success: 200,
  }),
  'DELETE /tasks/{id}/session': async (fx, s) => {
    const id = await fx.throwawayCard(s.board);
    await fx.admin('PUT', `${tasks(s)}/${id}/session`, { agent: 'matrix-agent', state: 'active' });
    return { path: `${tasks(s)}/${id}/session`, success: 200 };
  },
  'GET /context': (_fx, s) => ({ path: `${s.prefix}/context`, success: 200 }),
  'GET /metrics': (_fx, s) => ({ path: `${s.prefix}/metrics`, success: 200 }),
  'POST /boards/{boardId}/tasks/{id}/transfer': async (fx) => ({
    path: `/api/boards/ops/tasks/${await fx.throwawayCard('default')}/transfer`,
    body: {},
    success: 200,
  }),

  'GET /tasks/{id}/comments': (fx, s) => ({ path: `${seededCard(fx, s)}/comments`, success: 200 }),
  'POST /tasks/{id}/comments': (fx, s) => ({
    path: `${seededCard(fx, s)}/comments`,
    body: { author: 'someone', content: 'hello' },
    success: 201,
  }),
  'PUT /tasks/{id}/comments/{commentId}': (fx, s) => ({
    path: `${seededCard(fx, s)}/comments/${fx.comment(s.board)}`,
    body: { content: 'edited' },
    success: 200,
  }),
  'DELETE /tasks/{id}/comments/{commentId}': async (fx, s) => {
    const comment = await fx.admin('POST', `${seededCard(fx, s)}/comments`, { author: 'ada', content: 'short-lived' });
    return { path: `${seededCard(fx, s)}/comments/${comment.id}`, success: 200 };
  },

  'POST /tasks/{id}/checklist': (fx, s) => ({
    path: `${seededCard(fx, s)}/checklist`,
    body: { text: 'a step' },
    success: 200,
  }),
  'PATCH /tasks/{id}/checklist/{index}': async (fx, s) => {
    const card = await fx.admin('POST', tasks(s), { content: '# Listed\n\n- [ ] one\n' });
    return { path: `${tasks(s)}/${card.id}/checklist/0`, body: { done: true }, success: 200 };
  },
  'DELETE /tasks/{id}/checklist/{index}': async (fx, s) => {
    const card = await fx.admin('POST', tasks(s), { content: '# Listed\n\n- [ ] one\n' });
    return { path: `${tasks(s)}/${card.id}/checklist/0`, success: 200 };
  },

  'GET /tasks/{id}/git': (fx, s) => ({ path: `${seededCard(fx, s)}/git`, success: 200 }),

  'GET /tasks/{id}/logs': (fx, s) => ({ path: `${seededCard(fx, s)}/logs`, success: 200 }),
  'POST /tasks/{id}/logs': (fx, s) => ({ path: `${seededCard(fx, s)}/logs`, body: { text: 'built' }, success: 201 }),
  'DELETE /tasks/{id}/logs': (fx, s) => ({ path: `${seededCard(fx, s)}/logs`, success: 200 }),
  'GET /boards/{boardId}/logs': () => ({ path: '/api/boards/ops/logs', success: 200 }),
  'POST /boards/{boardId}/logs': () => ({ path: '/api/boards/ops/logs', body: { text: 'deployed' }, success: 201 }),
  'DELETE /boards/{boardId}/logs': () => ({ path: '/api/boards/ops/logs', success: 200 }),

  'POST /tasks/{id}/attachments': (fx, s) => ({
    path: `${seededCard(fx, s)}/attachments`,
    body: { files: [{ name: `${fx.unique('upload')}.txt`, data: FILE }] },
    success: 200,
  }),
  'GET /tasks/{id}/attachments/{filename}': (fx, s) => ({
    path: `${seededCard(fx, s)}/attachments/${fx.attachment(s.board)}`,
    success: 200,
  }),
  'DELETE /tasks/{id}/attachments/{filename}': async (fx, s) => {
    const name = `${fx.unique('scrap')}.txt`;
    await fx.admin('POST', `${seededCard(fx, s)}/attachments`, { files: [{ name, data: FILE }] });
    return { path: `${seededCard(fx, s)}/attachments/${name}`, success: 200 };
  },

  'POST /tasks/{id}/forms/{formId}/submit': (fx, s) => ({
    path: `${seededCard(fx, s)}/forms/bug/submit`,
    body: { data: { steps: 'open it' } },
    success: 200,
  }),
  'POST /tasks/{id}/actions/{action}': (fx, s) => ({ path: `${seededCard(fx, s)}/actions/deploy`, success: 204 }),
  'POST /tasks/{id}/open': (fx, s) => ({ path: `${seededCard(fx, s)}/open`, success: 200 }),
  'POST /tasks/{id}/read': (fx, s) => ({ path: `${seededCard(fx, s)}/read`, body: {}, success: 200 }),

  'GET /settings': () => ({ path: '/api/settings', success: 200 }),
  'PUT /settings': () => ({ path: '/api/settings', body: { compactMode: true }, success: 200 }),
  'GET /labels': () => ({ path: '/api/labels', success: 200 }),
  'GET /labels/usage': () => ({ path: '/api/labels/usage', success: 200 }),
  'PUT /labels/{name}': () => ({ path: '/api/labels/urgent', body: { color: '#dc2626' }, success: 200 }),
  'PATCH /labels/{name}': async (fx) => {
    const name = fx.unique('old-label');
    await fx.admin('PUT', `/api/labels/${name}`, { color: '#000000' });
    return { path: `/api/labels/${name}`, body: { newName: fx.unique('new-label') }, success: 200 };
  },
  'DELETE /labels/{name}': async (fx) => {
    const name = fx.unique('dropped-label');
    await fx.admin('PUT', `/api/labels/${name}`, { color: '#000000' });
    return { path: `/api/labels/${name}`, success: 200 };
  },
  'GET /forms': () => ({ path: '/api/forms', success: 200 }),
  'GET /views': () => ({ path: '/api/views', success: 200 }),
  'POST /views': (fx) => ({
    path: '/api/views',
    body: { name: fx.unique('View'), board: 'default', filter: { priority: 'high' } },
    success: 201,
  }),
  'GET /views/{id}': async (fx) => ({
    path: `/api/views/${(await fx.admin('POST', '/api/views', { name: fx.unique('Read view'), board: 'default' })).id}`,
    success: 200,
  }),
  'PUT /views/{id}': async (fx) => ({
    path: `/api/views/${(await fx.admin('POST', '/api/views', { name: fx.unique('Changed view'), board: 'default' })).id}`,
    body: { layout: 'table' },
    success: 200,
  }),
  'DELETE /views/{id}': async (fx) => ({
    path: `/api/views/${(await fx.admin('POST', '/api/views', { name: fx.unique('Dropped view'), board: 'default' })).id}`,
    success: 200,
  }),

  'GET /workspace': () => ({ path: '/api/workspace', success: 200 }),
  'GET /workspace/doctor': () => ({ path: '/api/workspace/doctor', success: 200 }),
  'POST /workspace/doctor/fix': () => ({ path: '/api/workspace/doctor/fix', success: 200 }),
  'GET /storage': () => ({ path: '/api/storage', success: 200 }),
  // Run in this order by the matrix: to SQLite, PostgreSQL, MySQL and back, so later routes see Markdown again.
  'POST /storage/migrate-to-sqlite': () => ({ path: '/api/storage/migrate-to-sqlite', body: {}, success: 200 }),
  'POST /storage/migrate-to-postgres': async (fx) => ({
    path: '/api/storage/migrate-to-postgres',
    body: { options: await fx.emptyDatabase('postgres') },
    success: 200,
  }),
  'POST /storage/migrate-to-mysql': async (fx) => ({
    path: '/api/storage/migrate-to-mysql',
    body: { options: await fx.emptyDatabase('mysql') },
    success: 200,
  }),
  'POST /storage/migrate-to-markdown': () => ({ path: '/api/storage/migrate-to-markdown', success: 200 }),
  'POST /import': () => ({
    path: '/api/import',
    body: { format: 'csv', data: 'title\nImported in the matrix\n' },
    success: 200,
  }),
  'GET /export': (_fx, s) => ({ path: `${s.prefix}/export?format=csv`, success: 200 }),
  'GET /resolve-path': () => ({ path: '/api/resolve-path?path=.', success: 200 }),
  'GET /auth': () => ({ path: '/api/auth', success: 200 }),
  'GET /card-state/status': () => ({ path: '/api/card-state/status', success: 200 }),

  'GET /webhooks': () => ({ path: '/api/webhooks', success: 200 }),
  'POST /webhooks': () => ({
    path: '/api/webhooks',
    body: { url: 'http://127.0.0.1:9/made', events: ['storage.migrated'] },
    success: 201,
  }),
  'PUT /webhooks/{id}': (fx) => ({ path: `/api/webhooks/${fx.webhookId}`, body: { active: true }, success: 200 }),
  'DELETE /webhooks/{id}': async (fx) => {
    const hook = await fx.admin('POST', '/api/webhooks', {
      url: 'http://127.0.0.1:9/short-lived',
      events: ['storage.migrated'],
    });
    return { path: `/api/webhooks/${hook.id}`, success: 200 };
  },
  'GET /webhooks/{id}/deliveries': (fx) => ({ path: `/api/webhooks/${fx.webhookId}/deliveries`, success: 200 }),
};
