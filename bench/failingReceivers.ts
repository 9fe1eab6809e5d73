import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * The three ways a webhook receiver fails in practice: one that accepts the connection and never
 * answers (the sender's timeout ends each attempt), one that answers 500 at once, and a port where
 * nothing listens (connection refused).
 */
export interface FailingReceivers {
  urls: { silent: string; error500: string; closedPort: string };
  /** Delivery requests that reached the silent and the 500 receiver. */
  received(): number;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A port that was free a moment ago and is closed again: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function startFailingReceivers(): Promise<FailingReceivers> {
  let received = 0;
  const silent = http.createServer((request) => {
    received++;
    request.resume();
  });
  const failing = http.createServer((request, response) => {
    received++;
    request.resume();
    request.on('end', () => response.writeHead(500, { 'content-type': 'text/plain' }).end('receiver broken'));
  });
  silent.maxConnections = 10_000;
  failing.maxConnections = 10_000;
  const [silentPort, failingPort, refusedPort] = await Promise.all([listen(silent), listen(failing), closedPort()]);
  return {
    urls: {
      silent: `http://127.0.0.1:${silentPort}/hook`,
      error500: `http://127.0.0.1:${failingPort}/hook`,
      closedPort: `http://127.0.0.1:${refusedPort}/hook`,
    },
    received: () => received,
    async close() {
      for (const server of [silent, failing]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
