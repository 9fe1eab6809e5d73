import type { TaskView } from '../types';
import type { BoardController } from './controller';
import { refreshTask } from './placement';

/** The card as the server answered a change to its agent parts, shown on the board at once. */
function showAnswer(ctrl: BoardController, card: TaskView): void {
  if (ctrl.state.boardId === card.boardId) ctrl.store.set((s) => (s.tasks[card.id] ? refreshTask(s, card) : {}));
  // The claimed and by-agent filters match on what just changed.
  ctrl.scheduleFilter(0);
}

/** A person lets an agent's claim go (the agent may then lose its next write); a refusal shows as a toast. */
export async function releaseClaim(ctrl: BoardController, task: TaskView): Promise<TaskView | undefined> {
  const agent = task.claim?.agent;
  const released = await ctrl.attempt(() => ctrl.api.releaseClaim(task.boardId, task.id));
  if (!released) return undefined;
  showAnswer(ctrl, released);
  if (agent) ctrl.toast('info', `Released the claim of agent ${agent}.`);
  return released;
}

/** A person clears what an agent last reported (a stale or finished session). */
export async function clearSession(ctrl: BoardController, task: TaskView): Promise<TaskView | undefined> {
  const cleared = await ctrl.attempt(() => ctrl.api.clearSession(task.boardId, task.id));
  if (cleared) showAnswer(ctrl, cleared);
  return cleared;
}
