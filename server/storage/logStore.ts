import type { Static } from '@sinclair/typebox';
import type { LogEntrySchema } from '../core/shapes/logEntry';

/** A log entry exactly as posted, plus `source` and `timestamp` defaults. */
export type LogEntry = Static<typeof LogEntrySchema>;

/**
 * Whose log: a card's (`cardId` set) or its board's own; with `stream: 'flow'`, the board's flow
 * history instead (the service's record of every card's column changes, read by the flow metrics).
 */
export interface LogOwner {
  boardId: string;
  cardId?: string;
  stream?: 'flow';
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
  /**
   * The entries added since `since` (where an earlier call left off), so a reader that holds a log
   * in memory sees what others appended: another process on the same files (the CLI, a pull),
   * another instance on the same database. `whole` says the log was read from its start, because
   * the reader is new to it or it was rewritten (a merge, a checkout, a deletion) rather than only
   * appended to.
   */
  readAppended?(owner: LogOwner, since: LogMark | null): Promise<AppendedEntries>;
}

/** Where a log ended when it was last read; what it holds is the store's own affair. */
export type LogMark = Readonly<Record<string, unknown>>;

export interface AppendedEntries {
  entries: LogEntry[];
  mark: LogMark | null;
  whole: boolean;
}
