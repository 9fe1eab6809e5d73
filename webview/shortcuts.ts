/**
 * Every keyboard shortcut of the board, in one table: the help sheet (`?`) lists it, and the board's
 * own key handler (keyboard.ts) asks it whether a key is a shortcut, so the two cannot drift. Keys
 * handled inside a component (a menu, a text box) are listed here with where they apply.
 */
export interface Shortcut {
  id: string;
  /** Keys as the help sheet shows them; any one of them does it. */
  keys: readonly string[];
  does: string;
  where:
    | 'Board'
    | 'Table'
    | 'Focused card'
    | 'Dragging a card'
    | 'Card menu'
    | 'Search box'
    | 'New card box'
    | 'Card drawer';
  /** For the keys keyboard.ts handles: whether the event is this shortcut. */
  matches?(event: KeyboardEvent): boolean;
}

const isArrow = (e: KeyboardEvent) => e.key.startsWith('Arrow');

export const SHORTCUTS = [
  { id: 'help', keys: ['?'], does: 'Show this list of shortcuts', where: 'Board', matches: (e) => e.key === '?' },
  { id: 'search', keys: ['/'], does: 'Search cards', where: 'Board', matches: (e) => e.key === '/' },
  {
    id: 'newCard',
    keys: ['n'],
    does: 'New card in the focused card’s column (else the default column)',
    where: 'Board',
    matches: (e) => e.key === 'n' && !e.altKey,
  },
  {
    id: 'close',
    keys: ['Esc'],
    does: 'Close the top layer: this help or a panel, the card drawer, the new card box, then clear the selection',
    where: 'Board',
    matches: (e) => e.key === 'Escape',
  },
  {
    id: 'undo',
    keys: ['Ctrl+Z', '⌘+Z'],
    does: 'Undo the last change on the board (a move, a delete, an archive, a bulk edit)',
    where: 'Board',
    matches: (e) => (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'z',
  },
  { id: 'focusFirst', keys: ['↑', '↓', '←', '→'], does: 'Focus the first card', where: 'Board', matches: isArrow },
  {
    id: 'toggleSelection',
    keys: ['Ctrl+click', '⌘+click'],
    does: 'Add the card to the selection, or take it out',
    where: 'Board',
  },
  {
    id: 'rangeSelection',
    keys: ['Shift+click'],
    does: 'Select every card from the focused one to this one in the column',
    where: 'Board',
  },
  {
    id: 'focusNext',
    keys: ['↑', '↓', '←', '→'],
    does: 'Focus the card above or below, or in the next column with cards',
    where: 'Focused card',
    matches: (e) => isArrow(e) && !e.altKey && !e.shiftKey,
  },
  {
    id: 'moveCard',
    keys: ['Alt+↑↓←→'],
    does: 'Move the card one place up or down, or to the next column',
    where: 'Focused card',
    matches: (e) => isArrow(e) && e.altKey,
  },
  {
    id: 'extendSelection',
    keys: ['Shift+↑↓←→'],
    does: 'Select the next card too, for a bulk edit',
    where: 'Focused card',
    matches: (e) => isArrow(e) && e.shiftKey && !e.altKey,
  },
  {
    id: 'openCard',
    keys: ['Enter', 'Space'],
    does: 'Open the card',
    where: 'Focused card',
    matches: (e) => e.key === 'Enter' || e.key === ' ',
  },
  {
    id: 'deleteCard',
    keys: ['Delete'],
    does: 'Move the card to Deleted (Undo in the message)',
    where: 'Focused card',
    matches: (e) => e.key === 'Delete',
  },
  {
    id: 'cardMenu',
    keys: ['Shift+F10', 'Menu'],
    does: 'Open the card’s menu',
    where: 'Focused card',
    matches: (e) => e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey),
  },
  {
    id: 'tableRows',
    keys: ['↑', '↓', 'Page Up', 'Page Down', 'Home', 'End'],
    does: 'Move the row focus',
    where: 'Table',
  },
  { id: 'tableOpen', keys: ['Enter'], does: 'Open the focused row’s card', where: 'Table' },
  { id: 'tableMenu', keys: ['Shift+F10'], does: 'Open the focused row’s card menu', where: 'Table' },
  { id: 'cancelDrag', keys: ['Esc'], does: 'Cancel the drag: the card stays where it was', where: 'Dragging a card' },
  { id: 'menuStep', keys: ['↑', '↓'], does: 'Step through the menu', where: 'Card menu' },
  { id: 'menuMoveTo', keys: ['→', '←'], does: 'Open or leave the Move to list', where: 'Card menu' },
  { id: 'menuClose', keys: ['Esc', 'Tab'], does: 'Close the menu', where: 'Card menu' },
  { id: 'searchClear', keys: ['Esc'], does: 'Clear the search; again to leave the box', where: 'Search box' },
  {
    id: 'quickAddSubmit',
    keys: ['Enter'],
    does: 'Add the card; the box stays open for the next one',
    where: 'New card box',
  },
  { id: 'quickAddClose', keys: ['Esc'], does: 'Close the box', where: 'New card box' },
  { id: 'saveDescription', keys: ['Ctrl+Enter', '⌘+Enter'], does: 'Save the description', where: 'Card drawer' },
  { id: 'commitField', keys: ['Enter'], does: 'Save a field, add a checklist item or a blocker', where: 'Card drawer' },
  {
    id: 'undoTyping',
    keys: ['Esc'],
    does: 'Undo the typing in a field, or leave the text box; again to close',
    where: 'Card drawer',
  },
] as const satisfies readonly Shortcut[];

export type ShortcutId = (typeof SHORTCUTS)[number]['id'];

/** Whether a key event is the board shortcut `id` (one that keyboard.ts handles). */
export function isShortcut(id: ShortcutId, event: KeyboardEvent): boolean {
  const shortcut: Shortcut | undefined = SHORTCUTS.find((s) => s.id === id);
  return Boolean(shortcut?.matches?.(event));
}
