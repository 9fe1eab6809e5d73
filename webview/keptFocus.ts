import { focusIsLost } from './focus';

/**
 * A card the keyboard just moved keeps the focus while the redraws that follow (the server's answer,
 * then its live event) move its element in the page: moving a focused element drops the focus, and
 * the next Alt+Arrow would then go nowhere. Until the user turns elsewhere (focuses something else or
 * uses the pointer) or a few seconds pass, a lost focus goes back to that card after each redraw.
 */
const KEEP_MS = 10_000;

export interface KeptFocus {
  keep(id: string): void;
  /**
   * The kept card while the focus is lost (a redraw took it before the card got it back): a key
   * pressed in that instant is meant for the card the user was moving.
   */
  lostFocusCard(): string | null;
  dispose(): void;
}

export function keepFocusAcrossRedraws(
  subscribe: (listener: () => void) => () => void,
  refocus: (id: string) => void,
): KeptFocus {
  let kept: { id: string; until: number } | null = null;
  const stop = () => (kept = null);
  const onFocusIn = (event: FocusEvent) => {
    if (!kept) return;
    // Back on the kept card: the user is still moving it, however slowly the board answers.
    if ((event.target as HTMLElement | null)?.dataset?.cardId === kept.id) kept.until = Date.now() + KEEP_MS;
    else stop();
  };
  const unsubscribe = subscribe(() => {
    if (!kept) return;
    if (Date.now() > kept.until) return void stop();
    const { id } = kept;
    requestAnimationFrame(() => {
      if (kept?.id === id && focusIsLost()) refocus(id);
    });
  });
  document.addEventListener('focusin', onFocusIn);
  document.addEventListener('pointerdown', stop, true);
  return {
    keep: (id) => (kept = { id, until: Date.now() + KEEP_MS }),
    lostFocusCard: () => (kept && Date.now() <= kept.until && focusIsLost() ? kept.id : null),
    dispose: () => {
      unsubscribe();
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('pointerdown', stop, true);
    },
  };
}
