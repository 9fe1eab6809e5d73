import type { TaskView } from './model';
import { log } from './log';

/** Every event the service emits; webhooks, WebSocket clients and the webview all see these. */
export const EVENT_NAMES = [
  'task.created',
  'task.updated',
  'task.moved',
  'task.deleted',
  'task.archived',
  'task.restored',
  'task.claimed',
  'task.released',
  'task.session',
  'comment.created',
  'comment.updated',
  'comment.deleted',
  'attachment.added',
  'attachment.removed',
  'log.added',
  'log.cleared',
  'board.log.added',
  'board.log.cleared',
  'column.created',
  'column.updated',
  'column.deleted',
  'column.reordered',
  'column.limit.exceeded',
  'board.created',
  'board.updated',
  'board.deleted',
  'label.updated',
  'label.renamed',
  'label.deleted',
  'view.created',
  'view.updated',
  'view.deleted',
  'settings.updated',
  'form.submit',
  'board.action.triggered',
  'card.action.triggered',
  'storage.migrated',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

export interface ServiceEvent {
  event: EventName;
  /** The board the change belongs to, or null for workspace-wide changes (settings, labels). */
  boardId: string | null;
  data: Record<string, unknown>;
  /** Full task read model for task-related events. */
  card?: TaskView;
  revision: number;
  timestamp: string;
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

  emit(event: EventName, boardId: string | null, data: Record<string, unknown>, card?: TaskView): ServiceEvent {
    const emitted: ServiceEvent = {
      event,
      boardId,
      data,
      card,
      revision: ++this.current,
      timestamp: new Date().toISOString(),
    };
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
