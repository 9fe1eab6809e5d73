/**
 * True when no element the user chose holds focus: it sits on the page itself, or on an element
 * that has just been removed. Code that moves focus on its own, later than the user's last action
 * (a layer closing, a card redrawn in another column), only takes it back in that case, so it never
 * pulls focus away from where the user has put it since.
 */
export function focusIsLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}
