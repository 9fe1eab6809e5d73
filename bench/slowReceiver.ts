import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local webhook receiver that answers every delivery only after a delay, like a slow integration. */
export interface SlowReceiver {
  url: string;
  /** Deliveries that arrived (with an X-Webhook-Event header), answered or not yet. */
  received(): number;
  close(): Promise<void>;
}

export async function startSlowReceiver(delayMs: number): Promise<SlowReceiver> {
  let received = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.headers['x-webhook-event']) received++;
      const timer = setTimeout(() => {
        timers.delete(timer);
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      }, delayMs);
      timers.add(timer);
    });
  });
  // The server under test may open many connections at once while deliveries wait.
  server.maxConnections = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
