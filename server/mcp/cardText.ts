/**
 * Cards as agents see them: a title and a body instead of Markdown content whose first `#`
 * heading is the title, and short summaries instead of the full read model (tokens cost money).
 */

const HEADING = /^#[ \t]+.*$/m;

export function composeContent(title: string, body?: string): string {
  // A heading is one line: a title with line breaks would spill into the body.
  const heading = `# ${title.replace(/\s+/g, ' ').trim()}`;
  const rest = body?.replace(/^\n+/, '').replace(/\s+$/, '');
  return rest ? `${heading}\n\n${rest}\n` : `${heading}\n`;
}

/** The content with its title and/or body replaced; what is not given stays as it was. */
export function reviseContent(content: string, change: { title?: string; body?: string }): string {
  const heading = HEADING.exec(content);
  // Text above the first heading (rare, hand-written) stays where it is.
  const before = heading ? content.slice(0, heading.index) : '';
  const oldTitle = heading ? heading[0].replace(/^#[ \t]+/, '').replace(/[ \t#]*$/, '') : undefined;
  const oldBody = heading ? content.slice(heading.index + heading[0].length) : content;
  const title = change.title ?? oldTitle;
  const body = change.body ?? oldBody;
  if (title === undefined) return body.endsWith('\n') ? body : `${body}\n`;
  return before + composeContent(title, body);
}

/** The fields of a card summary, in the order an agent reads them (`claim`: which agent holds it, until when). */
export const SUMMARY_FIELDS = [
  'id',
  'title',
  'status',
  'priority',
  'assignee',
  'labels',
  'dueDate',
  'checklist',
  'blockedBy',
  'blocked',
  'parent',
  'claim',
] as const;

const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);

/** The same object without null, empty strings, empty lists and empty objects. */
export function withoutEmpty(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => !isEmpty(value)));
}

/**
 * Checklist progress as `"2/5"`, and `blocked` only while it is true: an agent scanning a page
 * sees at a glance what is half done and what waits, for a few bytes per card.
 */
function compact(field: string, value: unknown): unknown {
  if (field === 'checklist' && value && typeof value === 'object') {
    const { done, total } = value as { done: number; total: number };
    return `${done}/${total}`;
  }
  if (field === 'blocked') return value === true ? true : undefined;
  return value;
}

/** id, title, status, priority, assignee, labels, dueDate, checklist, blockedBy, blocked, parent, claim: what is set of them. */
export function summaryOf(card: Record<string, unknown>, extra: string[] = []): Record<string, unknown> {
  return withoutEmpty(
    Object.fromEntries([...SUMMARY_FIELDS, ...extra].map((field) => [field, compact(field, card[field])])),
  );
}
