import { useEffect, useRef } from 'preact/hooks';

/** How long typed letters add up to one search, as in the editor's own menus and lists. */
const TYPE_AHEAD_MS = 700;

/** The letters typed so far, the item they led to, and the timer that ends the search. */
interface TypeAhead {
  text: string;
  led?: HTMLElement;
  ends?: ReturnType<typeof setTimeout>;
}

/**
 * A search goes on until TYPE_AHEAD_MS pass without a letter. The menu carries the letters in
 * `data-type-ahead` meanwhile, so the pause that starts a new search can be seen (and waited for).
 */
function typeAhead(menu: HTMLElement, text: string, led: HTMLElement | undefined, previous: TypeAhead): TypeAhead {
  clearTimeout(previous.ends);
  menu.dataset.typeAhead = text;
  const next: TypeAhead = { text, led };
  next.ends = setTimeout(() => {
    next.text = '';
    delete menu.dataset.typeAhead;
  }, TYPE_AHEAD_MS);
  return next;
}

function focusAt(items: HTMLElement[], index: number): void {
  items[(index + items.length) % items.length]?.focus();
}

/** The item whose text starts with what was typed, looking on from the focused one. */
function typedMatch(items: HTMLElement[], typed: string, from: number): HTMLElement | undefined {
  const ordered = [...items.slice(from), ...items.slice(0, from)];
  return ordered.find((item) => (item.textContent ?? '').trim().toLowerCase().startsWith(typed));
}

/**
 * The keyboard model of a menu: Up/Down walk its items (round the ends), Home/End go to the first and
 * last, typed letters go to the item that starts with them, Escape closes it (the caller gives
 * focus back to what opened it). Enter and Space are the item buttons' own. Returns the keydown
 * handler, to be given the menu's items in order; a key it uses goes no further, so it never
 * reaches the board's shortcuts.
 */
export function useMenuKeys(onEscape: () => void): (event: KeyboardEvent, items: HTMLElement[]) => void {
  const typed = useRef<TypeAhead>({ text: '' });
  useEffect(() => () => clearTimeout(typed.current.ends), []);
  return (event, items) => {
    if (!items.length || event.ctrlKey || event.metaKey || event.altKey) return;
    const at = items.indexOf(document.activeElement as HTMLElement);
    const { key } = event;
    if (key === 'ArrowDown') focusAt(items, at + 1);
    else if (key === 'ArrowUp') focusAt(items, at < 0 ? -1 : at - 1);
    else if (key === 'Home') focusAt(items, 0);
    else if (key === 'End') focusAt(items, -1);
    else if (key === 'Escape') onEscape();
    else if (key.length === 1 && key !== ' ') {
      // Letters add up while they come quickly and focus stays where they led (not after an arrow
      // key, nor in a menu opened again).
      const goesOn = typed.current.text !== '' && typed.current.led === items[at];
      const text = (goesOn ? typed.current.text : '') + key.toLowerCase();
      // One letter, or the same one pressed again, walks the items it starts, from past the focused
      // one; more letters refine the search from the focused one.
      const search = [...text].every((c) => c === text[0]) ? text[0] : text;
      const match = typedMatch(items, search, search.length === 1 ? at + 1 : Math.max(at, 0));
      match?.focus();
      typed.current = typeAhead(event.currentTarget as HTMLElement, text, match ?? items[at], typed.current);
    } else return;
    event.preventDefault();
    event.stopPropagation();
  };
}
