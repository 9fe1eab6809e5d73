import { isExternalEvent, isPeerEvent, type EventBus, type ServiceEvent } from '../core/events';
import { FLOW_STEP_KINDS, type FlowStep, type FlowStepKind } from '../core/flowTimeline';
import { log } from '../core/log';
import { DELETED_STATUS } from '../core/shapes/vocabulary';
import type { LogEntry, LogMark, LogOwner, LogStore } from '../storage/logStore';

/** A step of one card on one board. */
interface BoardStep {
  boardId: string;
  cardId: string;
  step: FlowStep;
}

type StepsByCard = Map<string, FlowStep[]>;

const flowLog = (boardId: string): LogOwner => ({ boardId, stream: 'flow' });

/**
 * A board's history as held in memory: what the log said when last looked at (`logged`, in log
 * order, and where it ended), and the steps that no one writes here (a hand edit the watcher noticed,
 * another instance's change as its event arrived), which the log's own entry replaces once it is
 * read. Over a store that cannot say what is new, `steps` alone, kept current by the events.
 */
interface HeldBoard {
  steps: StepsByCard;
  logged: CardStep[];
  unwritten: CardStep[];
  mark: LogMark | null;
  /** `steps` is to be built again from `logged` and `unwritten` before it is given out. */
  stale: boolean;
  /** Counts the changes of `steps`, for caches of answers computed from them. */
  version: number;
}

interface CardStep {
  cardId: string;
  step: FlowStep;
}

/**
 * The record of every card's column changes, per board, that the flow metrics read: written as the
 * events of the service's changes go by (so every path that moves a card is covered), one line per
 * change in the board's flow log (`flow.jsonl` beside the cards, or rows of the shared database).
 * Changes the watcher notices (hand edits) and another instance's changes are held in memory only:
 * they are written by whoever made them, or not at all.
 *
 * A board's log is read on the first metrics request and held in memory after that. Before each
 * answer the log is asked what was added since (one stat of a file, one count of database rows):
 * entries another process appended (a `kanban move` of the CLI, a pull) or another instance wrote
 * are read, and only those; a log rewritten (a merge, a checkout) is read whole. Appends and reads
 * run one at a time in event order, so memory and the log agree.
 */
export class FlowHistory {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly boards = new Map<string, HeldBoard>();
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
    return this.queue(async () => (await this.current(boardId)).steps);
  }

  /** Changes whenever the steps `stepsOf` gives for the board change (0 before the first read). */
  versionOf(boardId: string): number {
    return this.boards.get(boardId)?.version ?? 0;
  }

  /** Settles once every step recorded so far is written. */
  flushed(): Promise<void> {
    return this.queue(async () => undefined);
  }

  async close(): Promise<void> {
    this.stopListening();
    await this.flushed();
  }

  private async current(boardId: string): Promise<HeldBoard> {
    const store = this.logs();
    let held = this.boards.get(boardId);
    if (!store.readAppended) {
      if (held) return held;
      const logged = cardStepsOf(await store.read(flowLog(boardId)));
      held = { steps: byCard(logged), logged: [], unwritten: [], mark: null, stale: false, version: 1 };
      this.boards.set(boardId, held);
      return held;
    }
    const { entries, mark, whole } = await store.readAppended(flowLog(boardId), held?.mark ?? null);
    if (held && !whole && entries.length === 0 && !held.stale) return held;
    held ??= { steps: new Map(), logged: [], unwritten: [], mark: null, stale: false, version: 0 };
    const read = cardStepsOf(entries);
    held.logged = whole ? read : [...held.logged, ...read];
    held.unwritten = notLogged(held.unwritten, read);
    held.mark = mark;
    held.steps = byCard(mergedInTime(held.logged, held.unwritten));
    held.stale = false;
    held.version++;
    this.boards.set(boardId, held);
    return held;
  }

  private record(event: ServiceEvent): void {
    const steps = stepsOfEvent(event);
    if (steps.length === 0) return;
    // A change the watcher saw (a hand edit, a checkout, a pull) came with its own history, or none:
    // writing it here would turn a read of the tree into a change of a tracked file.
    const write = !isPeerEvent(event) && !isExternalEvent(event) && !this.readOnly;
    void this.queue(async () => {
      const store = this.logs();
      for (const { boardId, cardId, step } of steps) {
        if (write) await store.append(flowLog(boardId), entryOf(cardId, step));
        const held = this.boards.get(boardId);
        if (!held) continue;
        // A file log gives a written step back on its next read; only the others are held aside.
        if (store.readAppended) {
          if (write) continue;
          held.unwritten.push({ cardId, step });
          held.stale = true;
        } else append(held.steps, cardId, step);
        held.version++;
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

function cardStepsOf(entries: readonly LogEntry[]): CardStep[] {
  const steps: CardStep[] = [];
  for (const entry of entries) {
    const parsed = stepOf(entry);
    if (parsed) steps.push(parsed);
  }
  return steps;
}

const sameChange = (a: CardStep, b: CardStep) =>
  a.cardId === b.cardId && a.step.kind === b.step.kind && a.step.from === b.step.from && a.step.to === b.step.to;

/**
 * The held-aside steps the new log lines do not tell: a line for the same change replaces one (the
 * watcher saw a `kanban move` of the CLI, whose line says when it really happened), one for one.
 */
function notLogged(unwritten: CardStep[], read: CardStep[]): CardStep[] {
  const left = [...read];
  return unwritten.filter((held) => {
    const index = left.findIndex((line) => sameChange(line, held));
    if (index === -1) return true;
    left.splice(index, 1);
    return false;
  });
}

/**
 * Both lists as one in the order of time; the sort is stable, so steps of one instant keep the log's
 * order. A log merged from two branches holds one branch's lines, then the other's.
 */
function mergedInTime(logged: CardStep[], unwritten: CardStep[]): CardStep[] {
  return [...logged, ...unwritten].sort((a, b) => a.step.at - b.step.at);
}

function byCard(steps: readonly CardStep[]): StepsByCard {
  const cards: StepsByCard = new Map();
  for (const { cardId, step } of steps) append(cards, cardId, step);
  return cards;
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
