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

/** The body without its id, per event: every webhook of one event shares one serialization. */
const bodyTails = new WeakMap<ServiceEvent, string>();

/**
 * Serialized once per delivery: retries resend (and re-sign) exactly these bytes. The id comes first,
 * so each delivery's body is its id glued to the event's shared tail instead of a new JSON.stringify
 * of the whole card per webhook.
 */
export function deliveryBody(deliveryId: string, event: ServiceEvent): string {
  let tail = bodyTails.get(event);
  if (tail === undefined) {
    const rest: Omit<DeliveryBody, 'id'> = {
      event: event.event,
      timestamp: event.timestamp,
      boardId: event.boardId,
      ...(event.card !== undefined ? { card: event.card } : {}),
      data: event.data,
    };
    tail = JSON.stringify(rest).slice(1);
    bodyTails.set(event, tail);
  }
  return `{"id":${JSON.stringify(deliveryId)},${tail}`;
}
