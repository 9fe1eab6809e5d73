import * as yaml from 'js-yaml';
import { ARCHIVED_STATUS, PRIORITIES, type Priority } from '../core/shapes/vocabulary';
import type { Card, CardForm, Comment } from '../core/model';
import { isValidKey } from '../core/ordering';
import { isSafeCardId } from '../core/ids';
import { plainFrontmatter } from './plainFrontmatter';

/** Why a card file could not be read; reported by /api/workspace, never fatal. */
export class CardFileError extends Error {
  constructor(
    message: string,
    /** The 1-based line of the file where the problem is, when the parser says so. */
    readonly line?: number,
  ) {
    super(message);
  }
}

const YAML_OPTIONS = { schema: yaml.CORE_SCHEMA } as const;

type Json = Record<string, unknown>;

/** Frontmatter keys in the order they are written, so an edit is a small, stable diff. */
function frontmatterOf(card: Card): Json {
  const fm: Json = { id: card.id, status: card.status, priority: card.priority };
  if (card.assignee) fm.assignee = card.assignee;
  if (card.dueDate) fm.dueDate = card.dueDate;
  if (card.labels.length) fm.labels = card.labels;
  if (card.blockedBy?.length) fm.blockedBy = card.blockedBy;
  if (card.parent) fm.parent = card.parent;
  if (card.relatesTo?.length) fm.relatesTo = card.relatesTo;
  if (card.duplicateOf?.length) fm.duplicateOf = card.duplicateOf;
  if (Object.keys(card.metadata).length) fm.metadata = card.metadata;
  if (card.forms.length) fm.forms = card.forms;
  if (Object.keys(card.formData).length) fm.formData = card.formData;
  if (card.actions !== undefined) fm.actions = card.actions;
  if (card.attachments.length) fm.attachments = card.attachments;
  fm.order = card.order;
  fm.created = card.created;
  fm.modified = card.modified;
  if (card.completedAt) fm.completedAt = card.completedAt;
  if (card.archivedAt) fm.archivedAt = card.archivedAt;
  if (card.deletedFrom) fm.deletedFrom = card.deletedFrom;
  if (card.columnHistory?.length) fm.columnHistory = card.columnHistory;
  if (card.comments.length) fm.comments = card.comments.map(commentFrontmatter);
  return fm;
}

function commentFrontmatter(comment: Comment): Json {
  const out: Json = { id: comment.id, author: comment.author, created: comment.created };
  if (comment.modified) out.modified = comment.modified;
  out.content = comment.content;
  return out;
}

/**
 * The Markdown text of a card file: YAML frontmatter, a blank line, then the content exactly as the
 * client sent it. The file ends with a newline when the content does (every built-in client sends
 * one); nothing is added or taken away, because any added newline could not be told apart from the
 * content's own on reading: "x" and "x\n" would read back the same. So every string round-trips (no,
 * one or several final newlines, CRLF, empty), and a file written by hand or by an earlier version
 * ("body\n") reads as before ("body\n").
 *
 * Line endings: the frontmatter is always written with LF (YAML escapes any CR in a value), so a
 * file whose frontmatter has CRLF lines was saved by a CRLF editor or git's autocrlf; its CRLFs are
 * the editor's and the whole file is read as LF, as before. In every other file the text after the
 * frontmatter is the content's own bytes, CRs included.
 */
export function serializeCard(card: Card): string {
  const fm = yaml.dump(frontmatterOf(card), { ...YAML_OPTIONS, lineWidth: -1, noRefs: true, sortKeys: false });
  return `---\n${fm}---\n\n${card.content}`;
}

/** Where the closing `---` line ends (past its newline), or -1 when the file has none. */
function headerEnd(text: string): number {
  const close = text.indexOf('\n---', 3);
  if (close < 0) return -1;
  const lineEnd = text.indexOf('\n', close + 4);
  return lineEnd < 0 ? text.length : lineEnd + 1;
}

/** A file saved with CRLF lines throughout (its frontmatter says so) reads as LF; see serializeCard. */
function withEditorLineEndings(text: string): string {
  const end = headerEnd(text);
  const header = end < 0 ? text : text.slice(0, end);
  return header.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}

function splitFrontmatter(text: string): { fm: string; body: string } {
  const normalized = withEditorLineEndings(text);
  if (!normalized.startsWith('---\n'))
    throw new CardFileError('missing YAML frontmatter (the file must start with ---)');
  const end = normalized.indexOf('\n---', 3);
  if (end < 0) throw new CardFileError('frontmatter is not closed by a --- line');
  let bodyStart = end + 4;
  // The closing line may carry trailing spaces; the body starts on the next line.
  const lineEnd = normalized.indexOf('\n', bodyStart);
  const rest = lineEnd < 0 ? normalized.slice(bodyStart) : normalized.slice(bodyStart, lineEnd);
  if (rest.trim() !== '') throw new CardFileError('frontmatter is not closed by a --- line');
  bodyStart = lineEnd < 0 ? normalized.length : lineEnd + 1;
  let body = normalized.slice(bodyStart);
  if (body.startsWith('\n')) body = body.slice(1);
  return { fm: normalized.slice(4, end + 1), body };
}

function str(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new CardFileError(`"${key}" must be text`);
}

function strList(value: unknown, key: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new CardFileError(`"${key}" must be a list`);
  return value.map((v) => str(v, key) ?? '').filter((v) => v !== '');
}

function obj(value: unknown, key: string): Json {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new CardFileError(`"${key}" must be a mapping`);
  return value as Json;
}

function parseComments(value: unknown): Comment[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new CardFileError('"comments" must be a list');
  return value.map((raw, i) => {
    const c = obj(raw, `comments[${i}]`);
    const id = str(c.id, 'comments.id');
    if (!id) throw new CardFileError(`comments[${i}] has no id`);
    return {
      id,
      author: str(c.author, 'comments.author') ?? '',
      content: typeof c.content === 'string' ? c.content : (str(c.content, 'comments.content') ?? ''),
      created: str(c.created, 'comments.created') ?? '',
      ...(c.modified ? { modified: str(c.modified, 'comments.modified') } : {}),
    };
  });
}

function parseActions(value: unknown): Card['actions'] {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return strList(value, 'actions');
  const map = obj(value, 'actions');
  const out: Record<string, string> = {};
  for (const [key, title] of Object.entries(map)) out[key] = str(title, `actions.${key}`) ?? key;
  return out;
}

function loadFrontmatter(fm: string): unknown {
  const plain = plainFrontmatter(fm);
  if (plain !== undefined) return plain;
  let documents: unknown[];
  try {
    // js-yaml's load() refuses an empty source, but `---` followed by `---` (or only YAML comments)
    // is a fine hand-written card with default fields.
    documents = yaml.loadAll(fm, YAML_OPTIONS);
  } catch (error) {
    const e = error as yaml.YAMLException;
    // The frontmatter starts on the file's second line (after the opening ---).
    const line = e.mark ? e.mark.line + 2 : undefined;
    throw new CardFileError(
      `frontmatter is not valid YAML${line ? ` at line ${line}` : ''}: ${e.reason ?? e.message}`,
      line,
    );
  }
  if (documents.length > 1) throw new CardFileError('frontmatter holds more than one YAML document');
  return documents[0] ?? {};
}

export interface CardLocation {
  id: string;
  boardId: string;
  status: string;
  /** Used for `created`/`modified` when a hand-written file lacks them. */
  fileTime: string;
}

/** A status written in a frontmatter names a folder, so it must be a safe folder name. */
const STATUS_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

function parseStatus(value: unknown, folder: string): string {
  const status = str(value, 'status');
  if (status === undefined) return folder;
  if (!STATUS_NAME.test(status))
    throw new CardFileError(`"status" must be a column id (a-z, 0-9, - and _), not "${status}"`);
  return status;
}

/**
 * The card's id: the frontmatter's `id` when it is a valid id, so a file renamed by hand (or in the
 * Explorer) is still the same card and links and blockers to it keep resolving; else, for files
 * written by hand without one, the file name.
 */
function parseId(value: unknown, fileName: string): string {
  const id = typeof value === 'string' ? value.trim() : undefined;
  return id && isSafeCardId(id) ? id : fileName;
}

/**
 * Parse a card file. The frontmatter's `id` (else the file name) decides the id, the folders the board. The status is the frontmatter's
 * when it has one (files written before it was stored there use their folder); the store moves a
 * file whose folder disagrees.
 */
export function parseCard(text: string, where: CardLocation): Card {
  const { fm, body } = splitFrontmatter(text);
  const f = obj(loadFrontmatter(fm), 'frontmatter');
  const priority = str(f.priority, 'priority') ?? 'medium';
  if (!PRIORITIES.includes(priority as Priority))
    throw new CardFileError(`"priority" must be one of ${PRIORITIES.join(', ')}`);
  const created = str(f.created, 'created') ?? where.fileTime;
  return {
    id: parseId(f.id, where.id),
    boardId: where.boardId,
    status: parseStatus(f.status, where.status),
    content: body,
    priority: priority as Priority,
    assignee: str(f.assignee, 'assignee'),
    dueDate: str(f.dueDate, 'dueDate'),
    labels: strList(f.labels, 'labels'),
    metadata: obj(f.metadata, 'metadata'),
    forms: (Array.isArray(f.forms) ? f.forms : []) as CardForm[],
    formData: obj(f.formData, 'formData') as Card['formData'],
    actions: parseActions(f.actions),
    attachments: strList(f.attachments, 'attachments'),
    comments: parseComments(f.comments),
    // A missing or hand-mangled key sorts the card last; the next move in its column re-keys it.
    order: isValidKey(f.order) ? f.order : '',
    created,
    modified: str(f.modified, 'modified') ?? created,
    completedAt: str(f.completedAt, 'completedAt'),
    ...optionalFields(f, where),
  };
}

type OptionalField =
  'blockedBy' | 'parent' | 'relatesTo' | 'duplicateOf' | 'archivedAt' | 'deletedFrom' | 'columnHistory';

/**
 * Fields written only when set, so cards without them stay as small as before. The folder decides
 * whether a card is archived: a file moved into `archived/` by hand is archived (since the file
 * time when it does not say), and one moved out of it is not, whatever its frontmatter says.
 */
function optionalFields(f: Json, where: CardLocation): Pick<Card, OptionalField> {
  const out: Pick<Card, OptionalField> = {};
  for (const key of ['blockedBy', 'relatesTo', 'duplicateOf'] as const) {
    const ids = strList(f[key], key);
    if (ids.length) out[key] = ids;
  }
  const parent = str(f.parent, 'parent');
  if (parent) out.parent = parent;
  const archivedAt = str(f.archivedAt, 'archivedAt');
  if (where.status === ARCHIVED_STATUS) out.archivedAt = archivedAt ?? where.fileTime;
  const deletedFrom = str(f.deletedFrom, 'deletedFrom');
  if (deletedFrom) out.deletedFrom = deletedFrom;
  const history = strList(f.columnHistory, 'columnHistory');
  if (history.length) out.columnHistory = history;
  return out;
}
