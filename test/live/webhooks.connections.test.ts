import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';
import { eventually } from '../helpers/waiting';

/**
 * A receiver that serves one request per connection and then, like a server whose keep-alive
 * timeout ran out just as the next request came, closes the connection on the next one unanswered.
 */
class OneShotReceiver {
  readonly answered: string[] = [];
  closedUnanswered = 0;
  private readonly server = net.createServer((socket) => this.serve(socket));

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Kept connections the server's own client holds open are closed from this side. */
  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private readonly sockets = new Set<net.Socket>();

  private serve(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    let received = '';
    let served = 0;
    socket.setEncoding('latin1');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      received += chunk;
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = Number(/content-length: *(\d+)/i.exec(received.slice(0, headEnd))?.[1] ?? 0);
      if (received.length < headEnd + 4 + length) return;
      const delivery = /x-webhook-delivery: *(\S+)/i.exec(received.slice(0, headEnd))?.[1] ?? '';
      received = received.slice(headEnd + 4 + length);
      if (served++ > 0) {
        this.closedUnanswered++;
        socket.destroy();
        return;
      }
      this.answered.push(delivery);
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
    });
  }
}

describe('API webhooks: kept connections', () => {
  let server: TestServer;
  let receiver: OneShotReceiver;

  beforeEach(async () => {
    receiver = new OneShotReceiver();
    server = await startTestServer();
  });

  afterEach(async () => {
    await server.close();
    await receiver.close();
  });

  it('when the receiver closes a kept connection as it is reused, then the delivery goes out on a new one as its first attempt', async () => {
    const url = await receiver.listen();
    const hook = okData(await server.api('POST', '/api/webhooks', { url, events: ['task.created'] }), 201);
    await createTask(server, { content: '# First' });
    await eventually(async () => assert.equal(receiver.answered.length, 1));
    await createTask(server, { content: '# Second' });
    await eventually(async () => assert.equal(receiver.answered.length, 2));

    const attempts = okData(await server.api('GET', `/api/webhooks/${hook.id}/deliveries`));
    assert.deepEqual(
      attempts.map((a: { status: string; attempt: number }) => [a.status, a.attempt]),
      [
        ['delivered', 1],
        ['delivered', 1],
      ],
    );
    // The second delivery did meet the closed connection before it went through.
    assert.equal(receiver.closedUnanswered, 1);
  });
});
