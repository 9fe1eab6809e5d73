import type { BoardController } from './state/controller';
import { focusIsLost } from './focus';

/**
 * After a board action the element the keyboard was on often leaves the page: a moved card is drawn
 * anew in its column, a deleted one goes, the quick-add box and the description editor close, a
 * switched board replaces every card. Focus would then fall to the page itself and the next key
 * would go nowhere. So an action names where focus belongs afterwards (the card it acted on, the
 * next card, the button it was opened from), and until the user turns elsewhere (focuses something
 * else or uses the pointer) or a few seconds pass, a lost focus goes there after each redraw.
 */
const KEEP_MS = 10_000;

/** Where focus belongs after an action: the element, once drawn (null while it is not yet). */
export type FocusTarget = () => HTMLElement | null | undefined;

export interface KeptFocus {
  /** Focus stays on this card (one being moved with the keyboard) across the redraws that follow. */
  keep(id: string): void;
  /** Focus goes to `target` when the action takes it away, and stays there across redraws. */
  returnTo(target: FocusTarget): void;
  /**
   * Focus goes to `target` as soon as it is drawn, even from where it is now (a card brought back
   * by an undo, while focus sits on the neighbour a delete gave it to), then stays as `returnTo`.
   */
  moveTo(target: FocusTarget): void;
  /**
   * The kept card while the focus is lost (a redraw took it before the card got it back): a key
   * pressed in that instant is meant for the card the user was moving.
   */
  lostFocusCard(): string | null;
  dispose(): void;
}

interface Kept {
  find: FocusTarget;
  cardId?: string;
  until: number;
  /** Take focus once the target is drawn, even from an element the user had before the action. */
  claim?: boolean;
}

/** Each board page's kept focus, so the components that act (menus, quick-add) can name a target. */
const keptByController = new WeakMap<BoardController, KeptFocus>();

/** Ask that focus goes to `target` once the action about to run takes it away. */
export function returnFocusTo(ctrl: BoardController, target: FocusTarget): void {
  keptByController.get(ctrl)?.returnTo(target);
}

export function keepFocusAcrossRedraws(
  ctrl: BoardController,
  cardElement: (id: string) => HTMLElement | null,
): KeptFocus {
  let kept: Kept | null = null;
  const stop = () => (kept = null);
  const onFocusIn = (event: FocusEvent) => {
    if (!kept) return;
    // Back on the target: the user is still acting on it, however slowly the board answers.
    if (event.target === kept.find()) kept.until = Date.now() + KEEP_MS;
    else stop();
  };
  const putBack = () => {
    if (!kept) return;
    if (Date.now() > kept.until) return void stop();
    const mine = kept;
    requestAnimationFrame(() => {
      if (kept !== mine || (!mine.claim && !focusIsLost())) return;
      const el = mine.find();
      if (!el) return;
      mine.claim = false;
      el.focus();
      el.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    });
  };
  const unsubscribe = ctrl.store.subscribe(putBack);
  document.addEventListener('focusin', onFocusIn);
  document.addEventListener('pointerdown', stop, true);
  const start = (next: Kept) => {
    kept = next;
    // Some actions take focus away without a redraw of the board (a box closing): look once now too.
    putBack();
  };
  const handle: KeptFocus = {
    keep: (id) => start({ find: () => cardElement(id), cardId: id, until: Date.now() + KEEP_MS }),
    returnTo: (find) => start({ find, until: Date.now() + KEEP_MS }),
    moveTo: (find) => start({ find, until: Date.now() + KEEP_MS, claim: true }),
    lostFocusCard: () => (kept?.cardId && Date.now() <= kept.until && focusIsLost() ? kept.cardId : null),
    dispose: () => {
      unsubscribe();
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('pointerdown', stop, true);
      if (keptByController.get(ctrl) === handle) keptByController.delete(ctrl);
    },
  };
  keptByController.set(ctrl, handle);
  return handle;
}
