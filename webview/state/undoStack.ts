/** One step that can be taken back, and the message that offered it (none for a silent one). */
interface UndoStep {
  run: () => void;
  toastId?: number;
}

/** Enough to take back a run of moves; older steps are forgotten. */
const KEPT_STEPS = 20;

/**
 * The board's one undo: the Undo button in a message and Ctrl+Z / Cmd+Z take back the same steps,
 * Ctrl+Z the newest first. A step is taken back once, whichever of the two asked.
 */
export class UndoStack {
  private steps: UndoStep[] = [];

  push(run: () => void, toastId?: number): void {
    this.steps = [...this.steps.slice(1 - KEPT_STEPS), { run, toastId }];
  }

  /** Take back the newest step; returns it (for its message) or undefined when there is none. */
  undoLast(): UndoStep | undefined {
    const step = this.steps.pop();
    step?.run();
    return step;
  }

  /** The Undo button of one message: its step, wherever it is in the stack. */
  undoOffered(toastId: number): void {
    const index = this.steps.findIndex((s) => s.toastId === toastId);
    if (index < 0) return;
    const [step] = this.steps.splice(index, 1);
    step.run();
  }

  /** Another board is shown: its steps would act on the wrong cards. */
  clear(): void {
    this.steps = [];
  }
}
