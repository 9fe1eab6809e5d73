import type { Notification, ServerContext } from '@modelcontextprotocol/server';
import { adjustingCalls, type ApiClient } from '../client/apiClient';
import type { ProgressListener, RunControl } from '../core/progress';

/**
 * A tool call's hold on the long work it starts (import, bulk edit, storage migration): the
 * request's cancel signal reaches the service, and when the client sent a `progressToken`, the
 * service's progress comes back as `notifications/progress`.
 */
export function runControlOf(ctx: ServerContext): RunControl {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return { signal: ctx.mcpReq.signal };
  return { signal: ctx.mcpReq.signal, onProgress: progressNotifier(token, ctx.mcpReq.notify) };
}

/** The client, with every call it makes for this tool call carrying `run`. */
export function following(client: ApiClient, run: RunControl): ApiClient {
  return adjustingCalls(client, (call) => ({ ...call, run: call.run ?? run }));
}

/** At most about this many notifications per step: one per card would flood a 2,000-card import. */
const NOTIFICATIONS_PER_STEP = 50;

/**
 * MCP wants `progress` to grow with every notification, while the service counts each step from
 * zero ("reading", "copying cards", "checking the copy"). So the steps are laid end to end: a step
 * starts where the last one ended, and `total` is what is known so far. The message names the step.
 */
export function progressNotifier(
  token: string | number,
  notify: (notification: Notification) => Promise<void>,
): ProgressListener {
  let phase: string | undefined;
  let phaseTotal = 0;
  let base = 0;
  let sent = -1;
  return (update) => {
    if (update.phase !== phase) {
      if (phase !== undefined) base += phaseTotal;
      phase = update.phase;
    }
    phaseTotal = update.total;
    const progress = base + update.done;
    const total = base + update.total;
    const step = Math.max(1, Math.floor(update.total / NOTIFICATIONS_PER_STEP));
    if (progress <= sent) return;
    if (sent >= 0 && progress < total && progress - sent < step) return;
    sent = progress;
    // A client that went away cannot hear it; the work itself goes on (or is cancelled) regardless.
    notify({
      method: 'notifications/progress',
      params: { progressToken: token, progress, total, message: update.phase },
    }).catch(() => undefined);
  };
}
