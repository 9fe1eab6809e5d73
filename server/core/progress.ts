import { CancelledError } from './errors';

/**
 * Progress of long work (storage migration, import). Not an event: it changes nothing, takes no
 * revision and is not delivered to webhooks; a host that shows progress (the CLI's bar) listens.
 */
export interface Progress {
  /** What runs, e.g. `storage.migrate-to-sqlite`. */
  operation: string;
  /** The step, in words a person reads: "reading", "copying cards", "checking the copy". */
  phase: string;
  done: number;
  total: number;
}

export type ProgressListener = (progress: Progress) => void;

export class ProgressChannel {
  private readonly listeners = new Set<ProgressListener>();

  listen(listener: ProgressListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A reporter for one operation; `caller` also hears it (the one request that started it). With no
   * listener it costs one Set size check per call.
   */
  reporter(operation: string, caller?: ProgressListener): (phase: string, done: number, total: number) => void {
    return (phase, done, total) => {
      caller?.({ operation, phase, done, total });
      if (this.listeners.size === 0) return;
      for (const listener of this.listeners) listener({ operation, phase, done, total });
    };
  }
}

/** A reporter that tells nobody, for callers that do not follow progress. */
export const silentProgress = (_phase: string, _done: number, _total: number): void => undefined;

/**
 * How the caller of one long operation follows it and stops it: `onProgress` hears only this run,
 * `signal` aborts it. Operations look at the signal between steps and undo what they wrote.
 */
export interface RunControl {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

/** Stop here when the caller has cancelled: the operation's own catch undoes what it wrote. */
export function throwIfCancelled(signal: AbortSignal | undefined, operation: string): void {
  if (signal?.aborted) throw new CancelledError(`${operation} was cancelled; nothing was changed`);
}
