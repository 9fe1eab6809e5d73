/** The logs and tables whose news a process pushes to the others, over a database that can push. */
export type ChangeKind = 'cards' | 'cardState' | 'claims' | 'config' | 'events' | 'webhooks';

/**
 * Other processes' committed changes, pushed (PostgreSQL LISTEN/NOTIFY). `watch` runs `wake` when
 * `kind` has news, and also each time the listening connection (re)connects, because news sent
 * while it was down is lost: the reader then reads its log from where it stopped, as a poll would.
 * A push only says when to read; the log stays the truth, so a lost or repeated push is harmless.
 */
export interface ChangeSource {
  /** Answers a function that stops watching. */
  watch(kind: ChangeKind, wake: () => void): () => void;
}

/**
 * With pushed changes, a reader still reads this often, as a net under a push lost in a way the
 * reconnect does not reveal (a notification queue overflowing, a bug).
 */
export const SAFETY_POLL_MS = 30_000;

/**
 * Run `wake` every `pollMs`; or, when `source` pushes, on each push of `kind` and only every
 * `safetyMs` (or `pollMs` if longer) otherwise. Answers a function that stops both.
 */
export function wakeOnChanges(
  source: ChangeSource | undefined,
  kind: ChangeKind,
  pollMs: number,
  wake: () => void,
  safetyMs = SAFETY_POLL_MS,
): () => void {
  const timer = setInterval(wake, source ? Math.max(pollMs, safetyMs) : pollMs);
  timer.unref();
  const unwatch = source?.watch(kind, wake);
  return () => {
    clearInterval(timer);
    unwatch?.();
  };
}
