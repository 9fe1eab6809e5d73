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

  /** A reporter for one operation. With no listener it costs one Set size check per call. */
  reporter(operation: string): (phase: string, done: number, total: number) => void {
    return (phase, done, total) => {
      if (this.listeners.size === 0) return;
      for (const listener of this.listeners) listener({ operation, phase, done, total });
    };
  }
}

/** A reporter that tells nobody, for callers that do not follow progress. */
export const silentProgress = (_phase: string, _done: number, _total: number): void => undefined;
