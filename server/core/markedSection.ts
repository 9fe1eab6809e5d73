import { ValidationError } from './errors';

/**
 * A block kanban writes inside a file people also edit (AGENTS.md, Copilot's instructions): from an
 * opening marker `<!-- kanban:<name>[ <attrs>] -->` to a closing `<!-- /kanban:<name> -->`, HTML
 * comments so no Markdown view shows them. Everything outside the block stays byte for byte.
 */

export interface FoundSection {
  /** Where the opening marker starts and the closing one ends. */
  start: number;
  end: number;
  /** What the opening marker carries after the name, e.g. `v1.2.3`; '' when nothing. */
  attrs: string;
  /** The whole block, markers included. */
  block: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function sectionBlock(name: string, body: string, attrs = ''): string {
  return `<!-- kanban:${name}${attrs ? ` ${attrs}` : ''} -->\n${body.trimEnd()}\n<!-- /kanban:${name} -->`;
}

/** The block of `name` in `text`, or null. A marker without its partner, or two blocks, is refused: which one to rewrite would be a guess. */
export function findSection(text: string, name: string, where: string): FoundSection | null {
  const opens = [...text.matchAll(new RegExp(`<!-- kanban:${escape(name)}(?: ([^>]*?))? -->`, 'g'))];
  const close = `<!-- /kanban:${name} -->`;
  const closeAt = text.indexOf(close);
  if (opens.length === 0 && closeAt < 0) return null;
  if (opens.length > 1)
    throw new ValidationError(`${where} has ${opens.length} <!-- kanban:${name} --> blocks; remove all but one`);
  const open = opens[0];
  if (!open || closeAt < open.index)
    throw new ValidationError(
      `${where} has an unmatched <!-- kanban:${name} --> marker; put back <!-- kanban:${name} --> … ${close} or remove it`,
    );
  const end = closeAt + close.length;
  return { start: open.index, end, attrs: open[1] ?? '', block: text.slice(open.index, end) };
}

/** `text` with the block of `name` replaced by `block`, or `block` added at the end (a new file is just the block). */
export function withSection(text: string | null, name: string, block: string, where: string): string {
  if (text === null || text.trim() === '') return `${block}\n`;
  const found = findSection(text, name, where);
  if (found) return text.slice(0, found.start) + block + text.slice(found.end);
  return `${text.endsWith('\n') ? text : `${text}\n`}\n${block}\n`;
}
