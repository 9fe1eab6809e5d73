import type { ServiceEvent } from '../../server/core/events';
import { okData } from './envelope';
import { startTestServer, type TestServer } from './testServer';

/** A fresh server with a second board `ops`, for suites that run every route on both boards. */
export async function startServerWithOpsBoard(): Promise<TestServer> {
  const server = await startTestServer();
  okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Operations' }), 201);
  return server;
}

/** The events the service emitted while `action` ran. */
export async function eventsDuring(server: TestServer, action: () => Promise<unknown>): Promise<ServiceEvent[]> {
  const seen: ServiceEvent[] = [];
  const off = server.running.workspace.events.on((e) => seen.push(e));
  try {
    await action();
  } finally {
    off();
  }
  return seen;
}
