import { helpFor, list, str, type Command, type OptionSpec, type Parsed } from './command';
import type { Answer, Context } from './context';
import { UsageError } from './usage';

/** What the everyday commands share: the card flags, how they become fields and text, and printing. */

export const cardFlags: Record<string, OptionSpec> = {
  body: { type: 'string', value: '<markdown>', description: 'the card text under its title' },
  status: { type: 'string', value: '<column>', description: 'column id' },
  priority: { type: 'string', value: '<p>', description: 'critical, high, medium or low' },
  assignee: { type: 'string', value: '<name>', description: 'who does it ("" for nobody)' },
  due: { type: 'string', value: '<date>', description: 'due date, ISO 8601 ("" for none)' },
  label: {
    type: 'string',
    multiple: true,
    value: '<a,b>',
    description: "labels, comma-separated (replaces the card's labels)",
  },
  meta: {
    type: 'string',
    multiple: true,
    value: '<key=value>',
    description: 'metadata; a dotted key (links.jira=X) sets a nested value',
  },
  'blocked-by': {
    type: 'string',
    multiple: true,
    value: '<id,id>',
    description: 'cards (any board, partial ids work) this one waits for; replaces the list ("" for none)',
  },
  parent: { type: 'string', value: '<id>', description: 'make it a sub-card of this card (same board; "" for none)' },
  'relates-to': {
    type: 'string',
    multiple: true,
    value: '<id,id>',
    description: 'related cards (any board); replaces the list ("" for none)',
  },
  'duplicate-of': {
    type: 'string',
    multiple: true,
    value: '<id,id>',
    description: 'cards this one duplicates (any board); replaces the list ("" for none)',
  },
};

/** The flags that take a list of card ids, and the field each sets. */
const ID_LIST_FLAGS = { 'blocked-by': 'blockedBy', 'relates-to': 'relatesTo', 'duplicate-of': 'duplicateOf' } as const;

export const ID = '<id>';

export function usage(command: Command, message: string): never {
  throw new UsageError(message, helpFor(command));
}

export const enc = encodeURIComponent;

/** A card as the routes answer it. */
export type Card = Record<string, unknown>;

/** `key=value` pairs into a metadata object; dotted keys nest. */
export function metaPairs(
  command: Command,
  pairs: string[],
  into: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) usage(command, `--meta takes key=value, not "${pair}"`);
    const keys = pair.slice(0, at).split('.');
    let target = into;
    for (const key of keys.slice(0, -1)) {
      const next = target[key];
      target = target[key] =
        next && typeof next === 'object' && !Array.isArray(next) ? { ...(next as Record<string, unknown>) } : {};
    }
    target[keys[keys.length - 1]] = pair.slice(at + 1);
  }
  return into;
}

export function labels(parsed: Parsed): string[] {
  return list(parsed, 'label')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** The card fields the add/edit flags set (title and body aside). */
export function cardFields(
  command: Command,
  parsed: Parsed,
  metadata?: Record<string, unknown>,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const status = str(parsed, 'status');
  const priority = str(parsed, 'priority');
  const assignee = str(parsed, 'assignee');
  const due = str(parsed, 'due');
  if (status !== undefined) fields.status = status;
  if (priority !== undefined) fields.priority = priority;
  if (assignee !== undefined) fields.assignee = assignee === '' ? null : assignee;
  if (due !== undefined) fields.dueDate = due === '' ? null : due;
  if (parsed.values.label !== undefined) fields.labels = labels(parsed);
  if (parsed.values.meta !== undefined)
    fields.metadata = metaPairs(command, list(parsed, 'meta'), metadata ? { ...metadata } : {});
  for (const [flagName, field] of Object.entries(ID_LIST_FLAGS))
    if (parsed.values[flagName] !== undefined)
      fields[field] = list(parsed, flagName)
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean);
  const parent = str(parsed, 'parent');
  if (parent !== undefined) fields.parent = parent.trim() === '' ? null : parent.trim();
  return fields;
}

export function contentOf(title: string, body: string | undefined): string {
  return body ? `# ${title}\n\n${body.replace(/\n*$/, '')}\n` : `# ${title}\n`;
}

/** The card text without its first `#` heading (what --body sets). */
export function bodyOf(content: string): string {
  return content
    .replace(/^#[ \t]+.*(\r?\n)?/m, '')
    .replace(/^\s*\n/, '')
    .replace(/\s+$/, '');
}

export function withTitle(content: string, title: string): string {
  return /^#[ \t]+.*$/m.test(content) ? content.replace(/^#[ \t]+.*$/m, `# ${title}`) : `# ${title}\n\n${content}`;
}

export async function labelColors(ctx: Context): Promise<Record<string, { color?: string }>> {
  if (!ctx.output.color) return {};
  return (await ctx.get<Record<string, { color?: string }>>('/labels').catch(() => ({ data: {} }))).data ?? {};
}

export function due(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 10) : '';
}

/** Print `data` as JSON under --json, else as the human form. */
export function show(ctx: Context, answer: Answer, human: () => string | Promise<string>): Promise<void> | void {
  if (ctx.json) return ctx.printJson(answer);
  return Promise.resolve(human()).then((text) => ctx.output.out(text));
}
