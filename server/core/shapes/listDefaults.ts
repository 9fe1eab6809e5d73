/**
 * The compact list (`compact=true` on the task list): each entry leaves out every field whose value
 * is that field's empty default here, and a reader puts the defaults back with `withListDefaults`.
 * One table for both directions, so what is left out is exactly what is filled in. At 10,000 cards
 * these fields were about half of the list's bytes: most cards have no assignee, labels, links,
 * claim or comments. Plain constants in a module that imports nothing at run time: the page bundles
 * it. The read model's schema documents each as the field's `default` and checks its type (card.ts).
 */
export const LIST_DEFAULTS = {
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
} as const;

export type DefaultedField = keyof typeof LIST_DEFAULTS;

const DEFAULTED = Object.keys(LIST_DEFAULTS) as DefaultedField[];

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

/** A fresh copy of a default: the page's cards must not share one array or object. */
function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return [];
  return typeof value === 'object' && value !== null ? { ...value } : value;
}

/** Puts back, in place, every default a compact entry left out: the entry is then the full read model. */
export function withListDefaults<T extends object>(entry: T): T {
  const fields = entry as Record<string, unknown>;
  for (const field of DEFAULTED) if (!(field in fields)) fields[field] = copyOf(LIST_DEFAULTS[field]);
  return entry;
}
