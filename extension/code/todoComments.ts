/**
 * The pure rules of TODO comments and the cards made from them. A comment that has a card reads
 * `TODO(kanban:<card id>): text`: the `kanban:` prefix inside the parentheses cannot be mistaken
 * for a person's name (`TODO(alice): text` becomes `TODO(alice, kanban:<id>): text`), and the id is
 * a whole card id, so a search for it finds the comment.
 */

export interface TodoComment {
  /** Where `TODO`/`FIXME` and its parentheses, if any, start and end on the line (the colon excluded). */
  start: number;
  end: number;
  keyword: string;
  /** What was in the parentheses, if anything (`alice`). */
  owner: string;
  /** The comment's text after the colon, without a block comment's closing marks. */
  text: string;
  /** The card id the comment already carries, if it does. */
  cardId: string | null;
}

const TODO = /\b(TODO|FIXME)(?:\(([^)]*)\))?:\s*(.*)$/;
const LINKED = /(?:^|[\s,])kanban:([a-z0-9-]+)/;
// Block comment ends (star-slash, `-->`, `#}`, `--}}`, `*)`), left out of the card title.
const CLOSERS = /\s*(?:\*\/|-->|#\}|--\}\}|\*\))\s*$/;

export function todoOfLine(line: string): TodoComment | null {
  const match = TODO.exec(line);
  if (!match) return null;
  const owner = (match[2] ?? '').trim();
  const text = match[3].replace(CLOSERS, '').trim();
  if (!text) return null;
  const start = match.index;
  const end = start + match[1].length + (match[2] === undefined ? 0 : match[2].length + 2);
  return { start, end, keyword: match[1], owner, text, cardId: LINKED.exec(owner)?.[1] ?? null };
}

/** The comment's marker once it carries the card: `TODO(kanban:<id>)`, an owner kept before the id. */
export function linkedMarker(todo: TodoComment, cardId: string): string {
  return `${todo.keyword}(${todo.owner ? `${todo.owner}, ` : ''}kanban:${cardId})`;
}
