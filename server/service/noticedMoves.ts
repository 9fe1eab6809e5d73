import { isPeerEvent, type EventBus } from '../core/events';

interface NoticedMove {
  from: string;
  to: string;
  at: number;
}

/**
 * When the file watcher saw each card change its column by hand (a `status:` edited in the file, a
 * checkout): the service writes no history line for such a move, since a read of the tree must not
 * change a tracked file, so the metrics count it at the time it was noticed. Held in memory only;
 * after a restart such a move counts from the card's `modified`.
 */
export class NoticedMoves {
  private readonly moves = new Map<string, NoticedMove>();

  constructor(events: EventBus) {
    events.on((event) => {
      if (event.event !== 'task.moved' || event.data.external !== true || isPeerEvent(event)) return;
      this.moves.set(event.card.id, { from: event.data.from, to: event.data.to, at: Date.parse(event.timestamp) });
    });
  }

  /** The last hand move of the card seen, or undefined when none was. */
  of(cardId: string): NoticedMove | undefined {
    return this.moves.get(cardId);
  }
}
