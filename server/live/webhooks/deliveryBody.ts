import type { ServiceEvent } from '../../core/events';

/** The JSON a receiver gets (docs: webhooks). */
export interface DeliveryBody {
  id: string;
  event: string;
  timestamp: string;
  boardId: string | null;
  card?: unknown;
  data: Record<string, unknown>;
}

/**
 * An event's body without the delivery id, serialized once: one object shared by the event's
 * deliveries to every webhook, in memory and in the pending segment, so three webhooks cost one
 * copy of the card's JSON instead of three.
 */
export interface SharedBody {
  /** The body's bytes after `{"id":"<delivery id>",`. */
  readonly afterId: string;
}

const bodiesOfEvents = new WeakMap<ServiceEvent, SharedBody>();

export function sharedBodyOf(event: ServiceEvent): SharedBody {
  let body = bodiesOfEvents.get(event);
  if (body === undefined) {
    const rest: Omit<DeliveryBody, 'id'> = {
      event: event.event,
      timestamp: event.timestamp,
      boardId: event.boardId,
      ...(event.card !== undefined ? { card: event.card } : {}),
      data: event.data,
    };
    body = { afterId: JSON.stringify(rest).slice(1) };
    bodiesOfEvents.set(event, body);
  }
  return body;
}

/**
 * The exact bytes sent (and signed) for one delivery: the id comes first, so every attempt glues the
 * same id to the same shared tail and sends the same bytes.
 */
export function bodyWithId(deliveryId: string, body: SharedBody): string {
  return `{"id":${JSON.stringify(deliveryId)},${body.afterId}`;
}

/** The shared tail of `rawBody` when it is `bodyWithId(deliveryId, tail)`, as every release wrote it. */
export function splitBody(deliveryId: string, rawBody: string): SharedBody | null {
  const prefix = `{"id":${JSON.stringify(deliveryId)},`;
  return rawBody.startsWith(prefix) ? { afterId: rawBody.slice(prefix.length) } : null;
}

/** Serialized once per event: each delivery's body is its id glued to the event's shared tail. */
export function deliveryBody(deliveryId: string, event: ServiceEvent): string {
  return bodyWithId(deliveryId, sharedBodyOf(event));
}
