import type { ServiceEvent } from '../../server/core/events';
import { okData } from './envelope';
import { startTestServer, type TestServer } from './testServer';

/** A fresh server with a second board `ops`, for suites that run every route on both boards. */
export async function startServerWithOpsBoard(): Promise<TestServer> {
  const server = await startTestServer();
  okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Operations' }), 201);
  return server;
}

/**
 * An event as a test reads it: any field of any event's `data`, whose value the test then asserts
 * (the payload types themselves are checked where the service emits them).
 */
export type SeenEvent = Pick<ServiceEvent, 'event' | 'boardId' | 'card' | 'revision' | 'timestamp'> & {
  data: Record<string, unknown>;
};

/** The events the service emitted while `action` ran. */
export async function eventsDuring(server: TestServer, action: () => Promise<unknown>): Promise<SeenEvent[]> {
  const seen: SeenEvent[] = [];
  const off = server.running.workspace.events.on((e) => seen.push(e));
  try {
    await action();
  } finally {
    off();
  }
  return seen;
}
