import { bodyWithId, splitBody, type SharedBody } from './deliveryBody';

/*
 * What the pending files hold, line by line: the current segment line (each event's body once for
 * all its webhooks) and the shapes earlier releases wrote, all read back as `PendingDelivery`.
 */

/** A delivery not yet acknowledged by its receiver nor given up on. */
export interface PendingDelivery {
  /** Delivery id: the body's `id` and the `X-Webhook-Delivery` header, the same on every attempt. */
  id: string;
  webhookId: string;
  event: string;
  /**
   * What is sent (and signed) on every attempt, fixed when the event happened: the event's tail,
   * shared with its deliveries to the other webhooks, after this delivery's id (`rawBodyOf`). A
   * string is a whole body read from an earlier release's file that does not start with its id.
   */
  body: SharedBody | string;
  /** Attempts made so far. */
  attempts: number;
  /** Epoch milliseconds of the next attempt. */
  nextAttemptAt: number;
}

/** The exact bytes of every attempt of `delivery`. */
export function rawBodyOf(delivery: PendingDelivery): string {
  return typeof delivery.body === 'string' ? delivery.body : bodyWithId(delivery.id, delivery.body);
}

/** What one line of a segment holds: a batch of deliveries, or the ids settled since the last one. */
type SegmentLine = { deliveries: PendingDelivery[] } | { settled: string[] };

/**
 * A delivery as a batch line stores it: `body` indexes the line's `bodies`, which hold each event's
 * tail once for all its webhooks; `rawBody` is a whole body (see `PendingDelivery.body`).
 */
type StoredDelivery = Omit<PendingDelivery, 'body'> & ({ body: number } | { rawBody: string });

/** A batch line: `{"bodies": [...], "deliveries": [...]}`. */
interface StoredBatch {
  bodies: string[];
  deliveries: StoredDelivery[];
}

/** How a delivery was stored by earlier releases (a batch line was an array of these). */
type WholeBodyDelivery = Omit<PendingDelivery, 'body'> & { rawBody: string };

function parseLine(line: string): SegmentLine | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  // Earlier releases: an array of deliveries with their whole bodies.
  if (Array.isArray(value)) return value.every(isWholeBodyDelivery) ? { deliveries: value.map(fromWholeBody) } : null;
  if (isStoredBatch(value)) return { deliveries: fromStoredBatch(value) };
  const settled = (value as { settled?: unknown } | null)?.settled;
  return Array.isArray(settled) && settled.every((id) => typeof id === 'string') ? { settled } : null;
}

/** The deliveries of one line, those of one event sharing one body object as they did when saved. */
function fromStoredBatch({ bodies, deliveries }: StoredBatch): PendingDelivery[] {
  const shared = bodies.map((afterId): SharedBody => ({ afterId }));
  return deliveries.map(({ id, webhookId, event, attempts, nextAttemptAt, ...stored }) => ({
    id,
    webhookId,
    event,
    attempts,
    nextAttemptAt,
    body: 'rawBody' in stored ? stored.rawBody : shared[stored.body],
  }));
}

function fromWholeBody({ id, webhookId, event, attempts, nextAttemptAt, rawBody }: WholeBodyDelivery): PendingDelivery {
  return { id, webhookId, event, attempts, nextAttemptAt, body: splitBody(id, rawBody) ?? rawBody };
}

/**
 * One line for a batch: each shared body once, however many webhooks its event went to, so a write
 * with three webhooks serializes (and escapes) one copy of the card instead of three.
 */
export function batchLine(list: PendingDelivery[]): string {
  const bodies: string[] = [];
  const indexOf = new Map<SharedBody, number>();
  const deliveries = list.map(({ id, webhookId, event, attempts, nextAttemptAt, body }): StoredDelivery => {
    if (typeof body === 'string') return { id, webhookId, event, attempts, nextAttemptAt, rawBody: body };
    let index = indexOf.get(body);
    if (index === undefined) indexOf.set(body, (index = bodies.push(body.afterId) - 1));
    return { id, webhookId, event, attempts, nextAttemptAt, body: index };
  });
  return JSON.stringify({ bodies, deliveries } satisfies StoredBatch);
}

/** A one-delivery file of an earlier release: the delivery, named after its id. */
export function readSingle(name: string, text: string): { deliveries: PendingDelivery[]; settled: string[] } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return isWholeBodyDelivery(value) && `${value.id}.json` === name
    ? { deliveries: [fromWholeBody(value)], settled: [] }
    : null;
}

/**
 * A segment (or a batch file of an earlier release, one line). A line that does not parse was torn
 * by a crash mid-append, never acknowledged; a file with no readable line at all is unreadable.
 */
export function readLines(text: string): { deliveries: PendingDelivery[]; settled: string[] } | null {
  const content = { deliveries: [] as PendingDelivery[], settled: [] as string[] };
  let readable = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = parseLine(line);
    if (!parsed) continue;
    readable = true;
    if ('settled' in parsed) content.settled.push(...parsed.settled);
    else content.deliveries.push(...parsed.deliveries);
  }
  return readable ? content : null;
}

function hasDeliveryFields(value: unknown): value is Omit<PendingDelivery, 'body'> {
  const d = value as PendingDelivery;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.id === 'string' &&
    typeof d.webhookId === 'string' &&
    typeof d.event === 'string' &&
    Number.isInteger(d.attempts) &&
    typeof d.nextAttemptAt === 'number'
  );
}

function isWholeBodyDelivery(value: unknown): value is WholeBodyDelivery {
  return hasDeliveryFields(value) && typeof (value as WholeBodyDelivery).rawBody === 'string';
}

function isStoredBatch(value: unknown): value is StoredBatch {
  const { bodies, deliveries } = (value ?? {}) as Partial<StoredBatch>;
  if (!Array.isArray(bodies) || !bodies.every((body) => typeof body === 'string')) return false;
  if (!Array.isArray(deliveries)) return false;
  return deliveries.every((d) => {
    if (!hasDeliveryFields(d)) return false;
    if ('rawBody' in d) return typeof d.rawBody === 'string';
    return Number.isInteger(d.body) && d.body >= 0 && d.body < bodies.length;
  });
}
