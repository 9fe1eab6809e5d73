/** One step that can be taken back, and the message that offered it (none for a silent one). */
export interface UndoStep {
  run: () => void;
  toastId?: number;
  /** The card the step acted on: keyboard focus goes back to it once the step is taken back. */
  cardId?: string;
}

/** Enough to take back a run of moves; older steps are forgotten. */
const KEPT_STEPS = 20;

/**
 * The board's one undo: the Undo button in a message and Ctrl+Z / Cmd+Z take back the same steps,
 * Ctrl+Z the newest first. A step is taken back once, whichever of the two asked, and `takenBack`
 * hears of it either way (focus follows the card whichever way it came back).
 */
export class UndoStack {
  private steps: UndoStep[] = [];

  constructor(private readonly takenBack: (step: UndoStep) => void = () => undefined) {}

  push(step: UndoStep): void {
    this.steps = [...this.steps.slice(1 - KEPT_STEPS), step];
  }

  /** Take back the newest step; returns it (for its message) or undefined when there is none. */
  undoLast(): UndoStep | undefined {
    const step = this.steps.pop();
    if (step) this.take(step);
    return step;
  }

  /** The Undo button of one message: its step, wherever it is in the stack. */
  undoOffered(toastId: number): void {
    const index = this.steps.findIndex((s) => s.toastId === toastId);
    if (index < 0) return;
    const [step] = this.steps.splice(index, 1);
    this.take(step);
  }

  /** Another board is shown: its steps would act on the wrong cards. */
  clear(): void {
    this.steps = [];
  }

  private take(step: UndoStep): void {
    step.run();
    this.takenBack(step);
  }
}
