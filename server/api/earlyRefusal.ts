import type { Socket } from 'node:net';
import type { Response } from 'express';
import { sendError } from './errors';

/** Below this many bytes still to come, reading the rest costs less than a new connection. */
const DRAIN_MAX_BYTES = 64 * 1024;

/** How long a refused client may go on sending (discarded) after its answer, so it can read it. */
const LINGER_MS = 2000;

/**
 * Answer a request refused before its body was read (auth, Origin). To keep the connection for the
 * next request, Node would read and discard all that the client still sends; for a large body a
 * refused client could keep the server busy with it, so the connection is closed instead.
 */
export function sendErrorBeforeBody(res: Response, error: unknown): void {
  const req = res.req;
  if (!req.complete) {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (req.headers['transfer-encoding'] !== undefined || !(declared <= DRAIN_MAX_BYTES)) {
      res.set('Connection', 'close');
      stopReading(req.socket);
      closeInStages(req.socket);
    }
  }
  sendError(res, error);
}

/**
 * Read nothing more of a refused body: what the client still sends waits in the kernel's buffers
 * (bounded by the TCP window) instead of passing through this process, so a refused upload costs
 * no memory however fast it comes. Node resumes the socket to discard the body once the answer is
 * sent; pausing again on every resume keeps it stopped. The client stops sending at the answer.
 */
function stopReading(socket: Socket): void {
  socket.pause();
  socket.on('resume', () => socket.pause());
}

/**
 * Node ends a `Connection: close` answer with socket.destroySoon(), which closes at once: the
 * client, still sending, gets a reset and may never read the answer already on its way (Node's
 * own http client loses it). RFC 9112 section 9.6 asks for a close in stages instead: end our side,
 * keep reading (Node discards a body nobody consumes) until the client ends or a moment passes.
 */
function closeInStages(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(timer));
  };
}
