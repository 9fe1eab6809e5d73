import type { Static } from '@sinclair/typebox';
import type { LogEntrySchema } from '../core/shapes/logEntry';

/** A log entry exactly as posted, plus `source` and `timestamp` defaults. */
export type LogEntry = Static<typeof LogEntrySchema>;

/** Whose log: a card's (`cardId` set) or its board's own. */
export interface LogOwner {
  boardId: string;
  cardId?: string;
}

/**
 * Where card and board logs live: files beside the cards, or the card database when several
 * instances share one (every instance then reads what any of them appended). Append-only; entries
 * come back in the order they were appended.
 */
export interface LogStore {
  append(owner: LogOwner, entry: LogEntry): Promise<void>;
  read(owner: LogOwner): Promise<LogEntry[]>;
  /** Remove every entry of the log. */
  clear(owner: LogOwner): Promise<void>;
  /** Carry a card's log to its new place (transfer between boards). */
  move(from: LogOwner, to: LogOwner): Promise<void>;
  /**
   * A database log only: put `entries`, older than every entry it holds, before them, in one
   * commit; no-op when it holds them already (an earlier try that committed, another instance).
   */
  adoptOlder?(owner: LogOwner, entries: LogEntry[]): Promise<void>;
}
