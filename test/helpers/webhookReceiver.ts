import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: any;
}

export type Answer = number | 'hang';

/** A real HTTP receiver on 127.0.0.1 that records every request and answers as told. */
export class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received, countOnPath: number) => Answer = () => 200;
  private server = http.createServer((req, res) => this.handle(req, res));
  private waiters = new Set<() => void>();

  async listen(port = 0): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Resolves once `check` holds, or fails after `ms` with what did arrive. */
  async until(check: () => boolean, what: string, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; received: ${JSON.stringify(this.received.map((r) => [r.path, r.body?.event]))}`,
        );
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          resolve();
        };
        this.waiters.add(wake);
        setTimeout(wake, 50);
      });
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const request: Received = { path: req.url ?? '', headers: req.headers, rawBody, body: JSON.parse(rawBody) };
      this.received.push(request);
      const answer = this.answer(request, this.on(request.path).length);
      if (answer !== 'hang')
        res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 300 ? 'receiver is unwell' : 'ok');
      for (const wake of [...this.waiters]) wake();
    });
  }
}
