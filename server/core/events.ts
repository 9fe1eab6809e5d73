import type { TaskView } from './model';
import { EVENT_TABLE, type CardArgument, type CarriesCard, type EventName, type Payload } from './eventPayloads';
import { log } from './log';

/** Every event the service emits, in the order of the table; webhooks, WebSocket clients and the webview see these. */
export const EVENT_NAMES = Object.keys(EVENT_TABLE) as readonly EventName[];

export type { CardArgument, EventName, Payload } from './eventPayloads';

interface EventEnvelope<K extends EventName> {
  event: K;
  /** The board the change belongs to, or null for workspace-wide changes (settings, labels). */
  boardId: string | null;
  data: Payload<K>;
  revision: number;
  timestamp: string;
}

/** Card events carry the card's full read model after the change; the others carry none. */
type CardPart<K extends EventName> = CarriesCard<K> extends true ? { card: TaskView } : { card?: undefined };

/** One event of the service: narrowing on `event` gives its `data` (and `card`) their types. */
export type ServiceEvent = { [K in EventName]: EventEnvelope<K> & CardPart<K> }[EventName];

/** The event named `K`. */
export type EventOf<K extends EventName> = Extract<ServiceEvent, { event: K }>;

/**
 * Whether another instance over a shared database made the change (it delivered the event to the
 * webhooks and the event log itself, so this one must not take it again).
 */
export function isPeerEvent(event: ServiceEvent): boolean {
  return 'peer' in event.data && event.data.peer === true;
}

export type EventListener = (event: ServiceEvent) => void;

/** A subscription pattern is an exact event name, `*`, or `prefix.*`. */
export function isValidSubscription(pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) {
    const prefix = pattern.slice(0, -1);
    return EVENT_NAMES.some((name) => name.startsWith(prefix));
  }
  return (EVENT_NAMES as readonly string[]).includes(pattern);
}

export function subscriptionMatches(patterns: string[], event: string): boolean {
  return patterns.some((p) => p === '*' || p === event || (p.endsWith('.*') && event.startsWith(p.slice(0, -1))));
}

/** The one stream of changes: a revision counter and synchronous listeners. */
export class EventBus {
  private listeners = new Set<EventListener>();
  private current = 0;

  get revision(): number {
    return this.current;
  }

  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A process keeps no history of its events: a client that reconnects at the current revision has
   * missed nothing; any other revision (this process restarted, or it is another one) means re-fetch.
   */
  async replay(since: number): Promise<ServiceEvent[] | null> {
    return since === this.current ? [] : null;
  }

  emit<K extends EventName>(event: K, boardId: string | null, data: Payload<K>, ...card: CardArgument<K, TaskView>) {
    // One object per event whatever its name: TypeScript cannot tie a generic K to one member of the union.
    const emitted = {
      event,
      boardId,
      data,
      card: card[0],
      revision: ++this.current,
      timestamp: new Date().toISOString(),
    } as EventOf<K>;
    for (const listener of this.listeners) {
      try {
        listener(emitted);
      } catch (error) {
        // A faulty subscriber must not break the mutation that emitted the event.
        log.error('event listener failed:', error);
      }
    }
    return emitted;
  }
}
