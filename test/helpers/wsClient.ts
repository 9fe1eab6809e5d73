import WebSocket from 'ws';

export interface WsMessage {
  type: string;
  event?: string;
  boardId?: string | null;
  data?: any;
  card?: any;
  revision?: number;
}

/** A WebSocket client that records every message and can wait for one matching a predicate. */
export class RecordingSocket {
  readonly messages: WsMessage[] = [];
  closeCode: number | null = null;
  closeReason = '';
  private waiters: { match: (m: WsMessage) => boolean; resolve: (m: WsMessage) => void }[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as WsMessage;
      this.messages.push(message);
      this.waiters = this.waiters.filter((w) => (w.match(message) ? (w.resolve(message), false) : true));
    });
    socket.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
    });
  }

  static async connect(url: string, headers: Record<string, string> = {}): Promise<RecordingSocket> {
    const socket = new WebSocket(url, { headers });
    const client = new RecordingSocket(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    await client.waitFor((m) => m.type === 'hello');
    return client;
  }

  waitFor(match: (m: WsMessage) => boolean, timeoutMs = 3000): Promise<WsMessage> {
    const seen = this.messages.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no matching WebSocket message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.map((m) => m.event ?? m.type))}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  events(): WsMessage[] {
    return this.messages.filter((m) => m.type === 'event');
  }

  waitForClose(timeoutMs = 3000): Promise<number> {
    if (this.closeCode !== null) return Promise.resolve(this.closeCode);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('socket did not close')), timeoutMs);
      this.socket.once('close', (code) => (clearTimeout(timer), resolve(code)));
    });
  }

  close(): void {
    this.socket.terminate();
  }
}

export function wsUrl(httpUrl: string, path = '/ws'): string {
  return httpUrl.replace(/^http/, 'ws') + path;
}
