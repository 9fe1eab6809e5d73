import { isExternalEvent, isPeerEvent, type EventBus, type ServiceEvent } from '../core/events';
import { FLOW_STEP_KINDS, type FlowStep, type FlowStepKind } from '../core/flowTimeline';
import { log } from '../core/log';
import { DELETED_STATUS } from '../core/shapes/vocabulary';
import type { LogEntry, LogOwner, LogStore } from '../storage/logStore';

/** A step of one card on one board. */
interface BoardStep {
  boardId: string;
  cardId: string;
  step: FlowStep;
}

type StepsByCard = Map<string, FlowStep[]>;

const flowLog = (boardId: string): LogOwner => ({ boardId, stream: 'flow' });

/**
 * The record of every card's column changes, per board, that the flow metrics read: written as the
 * events of the service's changes go by (so every path that moves a card is covered), one line per
 * change in the board's flow log (`flow.jsonl` beside the cards, or rows of the shared database).
 * Changes the watcher notices (hand edits) and another instance's changes are held in memory only:
 * they are written by whoever made them, or not at all.
 *
 * A board's log is read once, on the first metrics request, and kept current in memory after that,
 * so a request never reads a file. Appends and that first read run one at a time in event order, so
 * memory and the log agree.
 */
export class FlowHistory {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly boards = new Map<string, StepsByCard>();
  private readonly stopListening: () => void;

  constructor(
    events: EventBus,
    private readonly logs: () => LogStore,
    private readonly readOnly: boolean,
  ) {
    this.stopListening = events.on((event) => this.record(event));
  }

  /** The recorded steps of every card of the board, in the order they happened. */
  stepsOf(boardId: string): Promise<ReadonlyMap<string, readonly FlowStep[]>> {
    return this.queue(async () => {
      const held = this.boards.get(boardId);
      if (held) return held;
      const steps = stepsByCard(await this.logs().read(flowLog(boardId)));
      this.boards.set(boardId, steps);
      return steps;
    });
  }

  /** Settles once every step recorded so far is written. */
  flushed(): Promise<void> {
    return this.queue(async () => undefined);
  }

  async close(): Promise<void> {
    this.stopListening();
    await this.flushed();
  }

  private record(event: ServiceEvent): void {
    const steps = stepsOfEvent(event);
    if (steps.length === 0) return;
    // A change the watcher saw (a hand edit, a checkout, a pull) came with its own history, or none:
    // writing it here would turn a read of the tree into a change of a tracked file.
    const write = !isPeerEvent(event) && !isExternalEvent(event) && !this.readOnly;
    void this.queue(async () => {
      for (const { boardId, cardId, step } of steps) {
        if (write) await this.logs().append(flowLog(boardId), entryOf(cardId, step));
        const held = this.boards.get(boardId);
        if (held) append(held, cardId, step);
      }
    });
  }

  private queue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work);
    this.tail = run.catch((error: unknown) =>
      log.warn(`kanban: the flow history could not be written or read: ${(error as Error).message}`),
    );
    return run;
  }
}

/** The column changes an event says happened; none for events that move no card between columns. */
export function stepsOfEvent(event: ServiceEvent): BoardStep[] {
  const at = Date.parse(event.timestamp);
  const one = (boardId: string | null, kind: FlowStepKind, from: string | null, to: string | null): BoardStep[] =>
    boardId === null || from === to ? [] : [{ boardId, cardId: event.card!.id, step: { at, kind, from, to } }];
  switch (event.event) {
    case 'task.created':
      return one(event.boardId, 'created', null, event.card.status);
    case 'task.moved': {
      const { fromBoard, toBoard, from, to } = event.data;
      if (fromBoard !== undefined && toBoard !== undefined && fromBoard !== toBoard)
        return [...one(fromBoard, 'left', from, null), ...one(toBoard, 'entered', null, to)];
      return one(event.boardId, 'moved', from, to);
    }
    case 'task.deleted': {
      const { permanent, previousStatus } = event.data;
      return permanent
        ? one(event.boardId, 'deleted', event.card.status, null)
        : one(event.boardId, 'deleted', previousStatus ?? null, event.card.status);
    }
    case 'task.restored':
      return one(event.boardId, 'restored', event.data.from === DELETED_STATUS ? DELETED_STATUS : null, event.data.to);
    default:
      return [];
  }
}

/** A step as a log line: readable in a diff, its data under `object`. */
function entryOf(cardId: string, step: FlowStep): LogEntry {
  return {
    text: `${cardId}: ${step.from ?? '-'} -> ${step.to ?? '-'}`,
    source: 'kanban',
    object: { card: cardId, kind: step.kind, from: step.from, to: step.to },
    timestamp: new Date(step.at).toISOString(),
  };
}

function stepsByCard(entries: readonly LogEntry[]): StepsByCard {
  const steps: StepsByCard = new Map();
  for (const entry of entries) {
    const parsed = stepOf(entry);
    if (parsed) append(steps, parsed.cardId, parsed.step);
  }
  return steps;
}

const columnOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';

/** A log line as a step, or null when it is not one (a hand-written or damaged line is skipped). */
function stepOf(entry: LogEntry): { cardId: string; step: FlowStep } | null {
  const data = entry.object;
  const at = Date.parse(entry.timestamp);
  if (!data || typeof data.card !== 'string' || Number.isNaN(at)) return null;
  if (!FLOW_STEP_KINDS.includes(data.kind as FlowStepKind) || !columnOrNull(data.from) || !columnOrNull(data.to))
    return null;
  return { cardId: data.card, step: { at, kind: data.kind as FlowStepKind, from: data.from, to: data.to } };
}

function append(steps: StepsByCard, cardId: string, step: FlowStep): void {
  const list = steps.get(cardId);
  if (list) list.push(step);
  else steps.set(cardId, [step]);
}
