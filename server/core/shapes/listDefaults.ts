/**
 * The compact list (`compact=true` on the task list): each entry leaves out every field whose value
 * is that field's empty default here, and a reader puts the defaults back with `withListDefaults`.
 * One table for both directions, so what is left out is exactly what is filled in. At 10,000 cards
 * these fields were about half of the list's bytes: most cards have no assignee, labels, links,
 * claim or comments. Plain constants in a module that imports nothing at run time: the page bundles
 * it. The read model's schema documents each as the field's `default` and checks its type (card.ts).
 *
 * Written as one object literal made fresh per call: the page's cards must not share an array or
 * object, and assigning a parsed entry onto a literal of fixed shape took 15-40 ms at 10,000 cards
 * where adding the missing fields one by one to the parsed entry took 100-200 ms.
 */
function emptyListEntry() {
  return {
    assignee: null,
    dueDate: null,
    labels: [],
    metadata: {},
    forms: [],
    formData: {},
    actions: [],
    attachments: [],
    commentCount: 0,
    completedAt: null,
    checklist: null,
    blockedBy: [],
    parent: null,
    relatesTo: [],
    duplicateOf: [],
    archivedAt: null,
    cardState: { unread: false, open: false },
    blocks: [],
    blocked: false,
    openBlockers: 0,
    children: { total: 0, done: 0 },
    related: [],
    duplicates: [],
    claim: null,
    session: null,
  };
}

/** Each field that has an empty default, and the default: what `compact=true` leaves out. */
export const LIST_DEFAULTS: Readonly<ReturnType<typeof emptyListEntry>> = emptyListEntry();

export type DefaultedField = keyof typeof LIST_DEFAULTS;

/** Whether `value` is the empty default: null, false, 0, or an array or object whose entries all are. */
function isDefault(value: unknown, empty: unknown): boolean {
  if (value === empty) return true;
  if (typeof value !== 'object' || value === null || typeof empty !== 'object' || empty === null) return false;
  if (Array.isArray(value) !== Array.isArray(empty)) return false;
  const keys = Object.keys(value);
  const emptyKeys = Object.keys(empty);
  if (keys.length !== emptyKeys.length) return false;
  return emptyKeys.every(
    (key) =>
      key in value && isDefault((value as Record<string, unknown>)[key], (empty as Record<string, unknown>)[key]),
  );
}

/** The entry without its fields that hold their empty default (the others keep their order). */
export function withoutListDefaults<T extends object>(entry: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (!(key in LIST_DEFAULTS) || !isDefault(value, LIST_DEFAULTS[key as DefaultedField])) out[key] = value;
  }
  return out as Partial<T>;
}

/** The whole entry from a compact one: every default it left out put back (a new object; the entry is left as it was). */
export function withListDefaults<T extends object>(entry: T): ReturnType<typeof emptyListEntry> & T {
  return Object.assign(emptyListEntry(), entry);
}
