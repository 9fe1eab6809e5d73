import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { isOrphanTempFile, TEMP_MARKER } from '../../core/atomicFile';
import { listCardFiles, RESERVED_BOARD_FOLDERS } from './cardFolders';
import { stampOf, type FileStamp } from './indexCache';

/** Every card file, and when asked each one's size and mtime as the listing found it. */
export interface CardListing {
  files: string[];
  /** Size then mtime of `files[n]` at `2n` and `2n + 1`; NaN for a file gone before its stat. */
  stamps: Float64Array | null;
}

/** A listing asked for its stamps: every file listed was stat'ed (NaN for one gone), so the array is there. */
export interface StampedCardListing extends CardListing {
  stamps: Float64Array;
}

/** The stamp of `files[n]` in a listing, or null when the file was gone. */
export function stampAt(stamps: Float64Array, n: number): FileStamp | null {
  const size = stamps[2 * n];
  return Number.isNaN(size) ? null : { size, mtimeMs: stamps[2 * n + 1] };
}

/**
 * Run in a worker: what `listCardFiles` lists (temp files apart, for the caller to judge), then a
 * stat of each file when asked. Its own text (the worker is evaluated, not bundled): keep in step.
 */
const LISTING_WORKER = `
const { readdirSync, statSync } = require('node:fs');
const { workerData, parentPort } = require('node:worker_threads');
const { boardsDir, sep, reserved, marker, stamp } = workerData;
const entriesOf = (dir) => { try { return readdirSync(dir, { withFileTypes: true }); } catch { return []; } };
const foldersIn = (dir) => entriesOf(dir).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
const folders = [];
const temps = [];
let count = 0;
for (const board of foldersIn(boardsDir)) {
  for (const status of foldersIn(boardsDir + sep + board)) {
    if (reserved.includes(status)) continue;
    const dir = boardsDir + sep + board + sep + status;
    const names = [];
    for (const entry of entriesOf(dir)) {
      if (!entry.isFile()) continue;
      if (entry.name.includes(marker)) temps.push(dir + sep + entry.name);
      else if (entry.name.endsWith('.md')) names.push(entry.name);
    }
    folders.push({ dir, names });
    count += names.length;
  }
}
let stamps = null;
if (stamp) {
  stamps = new Float64Array(2 * count);
  let n = 0;
  for (const { dir, names } of folders)
    for (const name of names) {
      const found = statSync(dir + sep + name, { throwIfNoEntry: false });
      stamps[n++] = found ? found.size : NaN;
      stamps[n++] = found ? found.mtimeMs : NaN;
    }
}
parentPort.postMessage({ folders, temps, stamps }, stamps ? [stamps.buffer] : []);
`;

interface WorkerListing {
  folders: { dir: string; names: string[] }[];
  temps: string[];
  stamps: Float64Array | null;
}

/**
 * The card files under `boardsDir`, listed and (with `stamp`) stat'ed on another thread: at a
 * restart this thread parses the card index cache meanwhile, so 100,000 directory entries and
 * stats (about 1.5 s of CPU) are no longer on its way. A temp file a crashed process left is
 * removed, as `listCardFiles` does. Without worker threads, both run here.
 */
export function listCardFilesOffThread(boardsDir: string, stamp: true): Promise<StampedCardListing>;
export function listCardFilesOffThread(boardsDir: string, stamp: boolean): Promise<CardListing>;
export async function listCardFilesOffThread(boardsDir: string, stamp: boolean): Promise<CardListing> {
  const listed = await listInWorker(boardsDir, stamp).catch(() => null);
  if (!listed) return listHere(boardsDir, stamp);
  const files: string[] = [];
  for (const { dir, names } of listed.folders) for (const name of names) files.push(`${dir}${path.sep}${name}`);
  for (const temp of listed.temps) if (isOrphanTempFile(temp)) await fs.rm(temp, { force: true });
  return { files, stamps: listed.stamps };
}

async function listInWorker(boardsDir: string, stamp: boolean): Promise<WorkerListing> {
  const workerData = { boardsDir, sep: path.sep, reserved: [...RESERVED_BOARD_FOLDERS], marker: TEMP_MARKER, stamp };
  const worker = new Worker(LISTING_WORKER, { eval: true, workerData });
  return await new Promise<WorkerListing>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the listing worker exited with code ${code}`)));
  }).finally(() => void worker.terminate());
}

async function listHere(boardsDir: string, stamp: boolean): Promise<CardListing> {
  const files = await listCardFiles(boardsDir);
  if (!stamp) return { files, stamps: null };
  const stamps = new Float64Array(2 * files.length);
  files.forEach((file, n) => {
    const found = stampOf(file);
    stamps[2 * n] = found ? found.size : NaN;
    stamps[2 * n + 1] = found ? found.mtimeMs : NaN;
  });
  return { files, stamps };
}
