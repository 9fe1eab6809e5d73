import { strict as assert } from 'node:assert';
import Ajv2020 from 'ajv/dist/2020';
import type { TestServer } from '../helpers/testServer';
import { createTask } from '../helpers/envelope';
import { eventsDuring, startServerWithOpsBoard, type SeenEvent } from '../helpers/serverHooks';

/** Each change of the flow, as a person or agent would make it over the API. */
async function everydayChanges(server: TestServer): Promise<void> {
  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await server.api(method, path, body);
    assert.ok(answer.status < 300, `${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  };
  const task = await createTask(server, 'Write the event table');
  const id = encodeURIComponent(task.id);
  await ok('PUT', `/api/tasks/${id}`, { priority: 'high' });
  await ok('PATCH', `/api/tasks/${id}/move`, { status: 'todo', position: 0 });
  await ok('POST', `/api/tasks/${id}/comments`, { author: 'ada', content: 'looks right' });
  await ok('POST', `/api/tasks/${id}/logs`, { text: 'checked the payloads' });
  await ok('POST', `/api/tasks/${id}/claim`, { agent: 'bot' });
  await ok('DELETE', `/api/tasks/${id}/claim`, { agent: 'bot' });
  await ok('POST', `/api/tasks/${id}/archive`);
  await ok('POST', `/api/tasks/${id}/restore`);
  await ok('DELETE', `/api/tasks/${id}`);
  await ok('POST', '/api/columns', { id: 'qa', name: 'QA' });
  await ok('PUT', '/api/settings', { compactMode: true });
  await ok('PUT', '/api/labels/bug', { color: '#ef4444' });
  await ok('POST', '/api/boards/ops/logs', { text: 'release cut' });
  await ok('POST', '/api/views', { name: 'Mine', board: 'default' });
}

describe('API event payloads', () => {
  let server: TestServer;
  before(async () => {
    server = await startServerWithOpsBoard();
  });
  after(async () => {
    await server.close();
  });

  it('when everyday changes are made, then every event they emit is the delivery body the OpenAPI webhooks section documents', async () => {
    const doc = await (await fetch(`${server.url}/api/docs/json`)).json();
    const seen = await eventsDuring(server, () => everydayChanges(server));
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
    const problems: string[] = [];
    for (const event of seen) {
      // The document's components sit beside the body schema, so its `#/components/...` refs resolve.
      const schema = doc.webhooks[event.event].post.requestBody.content['application/json'].schema;
      const validate = ajv.compile({ ...schema, components: doc.components });
      if (!validate(deliveryOf(event))) problems.push(`${event.event}: ${ajv.errorsText(validate.errors)}`);
    }
    assert.deepEqual(problems, []);
    const names = new Set(seen.map((e) => e.event));
    assert.ok(names.size >= 14, `only ${[...names].join(', ')} were seen`);
  });
});

/** The body a webhook receives for an event (see server/live/webhooks/deliveryBody.ts). */
function deliveryOf(event: SeenEvent): unknown {
  const { event: name, timestamp, boardId, card, data } = event;
  return JSON.parse(JSON.stringify({ id: 'delivery-1', event: name, timestamp, boardId, card, data }));
}
