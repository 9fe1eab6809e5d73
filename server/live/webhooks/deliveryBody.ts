import type { ServiceEvent } from '../../core/events';

/** The JSON a receiver gets, as decisions.md fixes it. */
export interface DeliveryBody {
  id: string;
  event: string;
  timestamp: string;
  boardId: string | null;
  card?: unknown;
  data: Record<string, unknown>;
}

/** Serialized once per delivery: retries resend (and re-sign) exactly these bytes. */
export function deliveryBody(deliveryId: string, event: ServiceEvent): string {
  const body: DeliveryBody = {
    id: deliveryId,
    event: event.event,
    timestamp: event.timestamp,
    boardId: event.boardId,
    ...(event.card !== undefined ? { card: event.card } : {}),
    data: event.data,
  };
  return JSON.stringify(body);
}
