import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { fingerprint } from './cardFolders';

/** A card file's text, its fingerprint, and the size and times of the same open file. */
export interface FileRead {
  text: string;
  hash: string;
  size: number;
  mtimeMs: number;
  /** `stat.mtime` as node makes it (milliseconds, rounded). */
  mtime: Date;
}

export type FileReadResult = FileRead | { error: Error };

/** One file, read whole, with the stat of the open file: the stamp is the text's even if the file changes meanwhile. */
export function readNow(file: string): FileReadResult {
  try {
    const fd = openSync(file, 'r');
    try {
      const stat = fstatSync(fd);
      const buffer = Buffer.allocUnsafe(stat.size);
      let read = 0;
      while (read < stat.size) {
        const n = readSync(fd, buffer, read, stat.size - read, read);
        if (n === 0) break;
        read += n;
      }
      const text = buffer.toString('utf8', 0, read);
      return { text, hash: fingerprint(text), size: stat.size, mtimeMs: stat.mtimeMs, mtime: stat.mtime };
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { error: error as Error };
  }
}

const TAKEN: FileReadResult = { error: new Error('taken already') };

/** Files per message from the worker: enough to make a message cheap, few enough to start parsing early. */
const BATCH = 256;

/**
 * Run in a worker: what `readNow` does, for `workerData.files` in order, posted in batches. It is
 * its own text (the worker is evaluated, not bundled), so keep the two in step.
 */
const READ_WORKER = `
const { closeSync, fstatSync, openSync, readSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { workerData, parentPort } = require('node:worker_threads');
function read(file) {
  try {
    const fd = openSync(file, 'r');
    try {
      const stat = fstatSync(fd);
      const buffer = Buffer.allocUnsafe(stat.size);
      let read = 0;
      while (read < stat.size) {
        const n = readSync(fd, buffer, read, stat.size - read, read);
        if (n === 0) break;
        read += n;
      }
      const text = buffer.toString('utf8', 0, read);
      const hash = createHash('sha1').update(text).digest('base64');
      return { text, hash, size: stat.size, mtimeMs: stat.mtimeMs, time: stat.mtime.getTime() };
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { error: String(error && error.message), code: error && error.code };
  }
}
const files = workerData.files;
for (let i = 0; i < files.length; i += ${BATCH}) parentPort.postMessage(files.slice(i, i + ${BATCH}).map(read));
`;

interface Posted {
  text?: string;
  hash?: string;
  size?: number;
  mtimeMs?: number;
  time?: number;
  error?: string;
  code?: string;
}

function fromPosted(posted: Posted): FileReadResult {
  if (posted.error !== undefined) {
    const error = new Error(posted.error) as NodeJS.ErrnoException;
    if (posted.code) error.code = posted.code;
    return { error };
  }
  return {
    text: posted.text!,
    hash: posted.hash!,
    size: posted.size!,
    mtimeMs: posted.mtimeMs!,
    mtime: new Date(posted.time!),
  };
}

/**
 * Reads `files` in order on another thread while this one parses what has come: at a first start
 * of 100,000 cards, opening, reading, closing and hashing the files was ~1.5 s of this thread's
 * time. `take(i)` gives the i-th file's result (in order: each call waits only for its own batch).
 * Where a worker cannot start, or fails, the files are read here as before.
 */
export class FileReadAhead {
  private readonly results: FileReadResult[] = [];
  private worker: Worker | undefined;
  private failed = false;
  private arrived: (() => void) | undefined;

  constructor(private readonly files: readonly string[]) {
    try {
      this.worker = new Worker(READ_WORKER, { eval: true, workerData: { files } });
    } catch {
      this.failed = true;
      return;
    }
    this.worker.on('message', (batch: Posted[]) => {
      for (const posted of batch) this.results.push(fromPosted(posted));
      this.wake();
    });
    this.worker.once('error', () => this.fail());
    this.worker.once('exit', () => {
      if (this.results.length < files.length) this.fail();
    });
  }

  /** Synchronous when the result is there already (most calls), so the load does not await per file. */
  take(i: number): FileReadResult | Promise<FileReadResult> {
    if (i < this.results.length) return this.handOver(i);
    return this.waitFor(i);
  }

  private async waitFor(i: number): Promise<FileReadResult> {
    while (i >= this.results.length && !this.failed) await new Promise<void>((resolve) => (this.arrived = resolve));
    return i < this.results.length ? this.handOver(i) : readNow(this.files[i]);
  }

  /** Each text is parsed once: not held here after (100,000 of them are tens of MB). */
  private handOver(i: number): FileReadResult {
    const result = this.results[i];
    this.results[i] = TAKEN;
    return result;
  }

  /** Done with it (every result taken, or the load gave up). */
  stop(): void {
    void this.worker?.terminate();
  }

  private fail(): void {
    this.failed = true;
    this.wake();
  }

  private wake(): void {
    const arrived = this.arrived;
    this.arrived = undefined;
    arrived?.();
  }
}
