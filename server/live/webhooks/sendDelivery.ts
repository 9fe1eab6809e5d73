import { signatureHeader } from './secrets';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a failing receiver's answer is kept in the attempt history. */
const ERROR_BODY_CHARS = 200;

export interface DeliveryRequest {
  url: string;
  deliveryId: string;
  event: string;
  rawBody: string;
  secret: string | null;
  timeoutMs: number;
  /** Aborts the attempt when the queue stops; the delivery then stays pending. */
  stopSignal: AbortSignal;
}

export interface AttemptOutcome {
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

export function deliveryHeaders(
  request: Pick<DeliveryRequest, 'deliveryId' | 'event' | 'rawBody' | 'secret'>,
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'repo-kanban-webhooks',
    'X-Webhook-Event': request.event,
    'X-Webhook-Delivery': request.deliveryId,
  };
  if (request.secret !== null) headers['X-Webhook-Signature'] = signatureHeader(request.secret, request.rawBody);
  return headers;
}

/** The start of a response body, read under the same deadline, so a chatty receiver cannot stall us. */
async function bodySnippet(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < ERROR_BODY_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A broken body does not change the verdict, which the status already gave.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, ERROR_BODY_CHARS);
}

function describeNetworkError(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no answer within ${timeoutMs / 1000} s`;
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message ?? 'request failed'} (${cause})` : (e.message ?? String(error));
}

/**
 * One POST to the receiver. Any 2xx is success; redirects are not followed (a POST turned into a
 * GET would silently lose the payload), so they count as failures like any other status.
 */
export async function sendDelivery(request: DeliveryRequest): Promise<AttemptOutcome> {
  const started = Date.now();
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = AbortSignal.any([timeout, request.stopSignal]);
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: deliveryHeaders(request),
      body: request.rawBody,
      redirect: 'manual',
      signal,
    });
    if (response.status >= 200 && response.status < 300) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: true, httpStatus: response.status, error: null, durationMs: Date.now() - started };
    }
    const snippet = await bodySnippet(response);
    const error = `receiver answered HTTP ${response.status}${snippet ? `: ${snippet}` : ''}`;
    return { ok: false, httpStatus: response.status, error, durationMs: Date.now() - started };
  } catch (error) {
    const message = describeNetworkError(error, timeout.aborted, request.timeoutMs);
    return { ok: false, httpStatus: null, error: message, durationMs: Date.now() - started };
  }
}
