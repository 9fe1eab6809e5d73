import type { Card, TaskView } from '../core/model';
import { titleOf } from '../core/model';
import type { ListField } from '../core/listPaging';
import type { WorkspaceState } from './workspaceState';
import { checklistItems, checklistProgress, type ChecklistItem } from '../core/checklist';
import { openBlockerCount } from './dependencies';
import { childCount, linkViewFields, relatedOf } from './cardLinks';
import { BoundedMemo } from '../core/boundedMemo';
import { cardStateJson, claimJson, sessionJson, stateAndLinksJson } from './perReadJson';

/**
 * How many cards' serialized parts stay kept per generation (see BoundedMemo): a board of up to this
 * many cards is listed from kept parts read after read; past it, memory stays bounded (at 100,000
 * cards the kept list JSON alone was about 100 MB) and the parts of cards not read lately are made again.
 */
export const CARDS_KEPT = 20_000;

export interface ViewOptions {
  withComments?: boolean;
  position?: number;
  actor?: string;
}

/** The fields of the read model that depend on the card alone, in the read model's key order. */
export function cardFields(card: Card) {
  return {
    id: card.id,
    boardId: card.boardId,
    title: titleOf(card.content),
    content: card.content,
    status: card.status,
    priority: card.priority,
    assignee: card.assignee ?? null,
    dueDate: card.dueDate ?? null,
    labels: card.labels,
    metadata: card.metadata,
    forms: card.forms,
    formData: card.formData,
    actions: card.actions ?? [],
    attachments: card.attachments,
    commentCount: card.comments.length,
    created: card.created,
    modified: card.modified,
    completedAt: card.completedAt ?? null,
    checklist: checklistProgress(card.content),
    blockedBy: card.blockedBy ?? [],
    parent: card.parent ?? null,
    relatesTo: card.relatesTo ?? [],
    duplicateOf: card.duplicateOf ?? [],
    archivedAt: card.archivedAt ?? null,
  };
}

/**
 * `blocks`, `blocked`, `openBlockers` and the link views (`children`, `related`, `duplicates`)
 * depend on other cards: made per read, O(1) lookups per linked card.
 */
function dependencyFields(ws: WorkspaceState, card: Card) {
  const openBlockers = openBlockerCount(ws, card);
  return {
    blocks: [...ws.index.blocksOf(card.id)],
    blocked: openBlockers > 0,
    openBlockers,
    ...linkViewFields(ws, card),
  };
}

/**
 * What the read model takes from the card object alone, made once per card object: cards are
 * immutable (a change is a new object), and a get parsed the content's checklist twice per read.
 */
const cardOnly = new BoundedMemo<Card, { fields: ReturnType<typeof cardFields>; items?: ChecklistItem[] }>(CARDS_KEPT);
/** The card's file path per card object, for the store that made it (a join and relative per read otherwise). */
const filePaths = new BoundedMemo<Card, { store: unknown; path: string | undefined }>(CARDS_KEPT);

function cardOnlyOf(card: Card): { fields: ReturnType<typeof cardFields>; items?: ChecklistItem[] } {
  let held = cardOnly.get(card);
  if (held === undefined) {
    held = { fields: cardFields(card) };
    cardOnly.set(card, held);
  }
  return held;
}

function filePathOf(ws: WorkspaceState, card: Card): string | undefined {
  const held = filePaths.get(card);
  if (held && held.store === ws.store) return held.path;
  const made = { store: ws.store, path: ws.store.filePathOf?.(card) };
  filePaths.set(card, made);
  return made.path;
}

/** The read model of a card. */
export function taskView(ws: WorkspaceState, card: Card, options: ViewOptions = {}): TaskView {
  const held = cardOnlyOf(card);
  const view: TaskView = {
    ...held.fields,
    position: options.position ?? ws.index.positionOf(card),
    cardState: ws.cardStates.stateOf(card.id, options.actor ?? 'default'),
    ...dependencyFields(ws, card),
    claim: ws.claims.of(card.boardId, card.id),
    session: ws.claims.sessionOf(card.boardId, card.id),
  };
  if (options.withComments) {
    view.comments = card.comments;
    held.items ??= checklistItems(card.content);
    view.checklistItems = held.items;
  }
  const filePath = filePathOf(ws, card);
  if (filePath) view.filePath = filePath;
  return view;
}

/** Parts joined into one string before a copy: a Buffer write per small part costs more than the copy. */
const PARTS_PER_CHUNK = 64;

/**
 * Text to be written as UTF-8 into one Buffer at the end, with its byte length known up front. The
 * parts are kept as they are (most are each card's kept JSON) and joined only while copying, one
 * group at a time: joined as they came, the groups were a second copy of the whole answer on the
 * heap until the copy (about 80 MB at 100,000 cards), which V8 kept as heap after the answer.
 */
export class JsonBytes {
  private groups: { parts: string[]; ascii: boolean }[] = [];
  private pending: string[] = [];
  /** Whether every pending part is ASCII (as many bytes as characters): copied faster as latin1. */
  private pendingAscii = true;
  private length = 0;

  push(text: string, byteLength = Buffer.byteLength(text)): void {
    this.pending.push(text);
    this.pendingAscii &&= byteLength === text.length;
    this.length += byteLength;
    if (this.pending.length >= PARTS_PER_CHUNK) this.close();
  }

  private close(): void {
    if (this.pending.length) this.groups.push({ parts: this.pending, ascii: this.pendingAscii });
    this.pending = [];
    this.pendingAscii = true;
  }

  /** One allocation of the exact size: no joined intermediate string of the whole (7 MB, or 14 MB as UTF-16). */
  toBuffer(): Buffer {
    this.close();
    const out = Buffer.allocUnsafe(this.length);
    let at = 0;
    for (const group of this.groups) at += out.write(group.parts.join(''), at, group.ascii ? 'latin1' : 'utf8');
    this.groups = [];
    return out;
  }
}

/** JSON text without its closing brace, and its length in UTF-8 bytes. */
export interface KeptJson {
  text: string;
  bytes: number;
}

/**
 * `JSON.stringify(fieldsOf(card))` without its closing brace, made once per card object (cards
 * are immutable: a change is a new object). Most of a list's cost was building and stringifying
 * the card-only fields for every card on every read. One memo per `fieldsOf` (the full part and the compact one).
 */
export function keptFieldsJson(fieldsOf: (card: Card) => object): (card: Card) => KeptJson {
  const kept = new BoundedMemo<Card, KeptJson>(CARDS_KEPT);
  return (card) => {
    let held = kept.get(card);
    if (held === undefined) {
      const text = JSON.stringify(fieldsOf(card)).slice(0, -1);
      held = { text, bytes: Buffer.byteLength(text) };
      kept.set(card, held);
    }
    return held;
  };
}

/** The card-only part of a full list entry. */
const fieldsJsonOf = keptFieldsJson(cardFields);
/** `,"filePath":"..."` per card object, for the store that made it. */
const filePathJson = new BoundedMemo<Card, { store: unknown; text: string }>(CARDS_KEPT);

export function filePathJsonOf(ws: WorkspaceState, card: Card): string {
  const held = filePathJson.get(card);
  if (held && held.store === ws.store) return held.text;
  const filePath = ws.store.filePathOf?.(card);
  const text = filePath ? `,"filePath":${JSON.stringify(filePath)}` : '';
  filePathJson.set(card, { store: ws.store, text });
  return text;
}

/**
 * Adds `JSON.stringify(taskView(ws, card, {position, actor}))` (list entries carry no comments),
 * from cached pieces: only the position and the actor's card state are new per read.
 */
export function pushTaskViewJson(
  out: JsonBytes,
  ws: WorkspaceState,
  card: Card,
  position: number,
  actor: string,
): void {
  const fields = fieldsJsonOf(card);
  out.push(fields.text, fields.bytes);
  out.push(`${perReadJson(ws, card, position, actor)}${filePathJsonOf(ws, card)}}`);
}

/** `,"position":..,"cardState":{..}`, the dependency fields and the claim: what a read makes new for every card. */
function perReadJson(ws: WorkspaceState, card: Card, position: number, actor: string): string {
  return `,"position":${position}${stateAndLinksJson(ws, card, actor, 'full')}`;
}

/** `,"comments":[...],"checklistItems":[...]` of a single card's read model, made once per card object. */
const detailJson = new BoundedMemo<Card, string>(CARDS_KEPT);

function detailJsonOf(card: Card): string {
  let held = detailJson.get(card);
  if (held === undefined) {
    const items = (cardOnlyOf(card).items ??= checklistItems(card.content));
    held = `,"comments":${JSON.stringify(card.comments)},"checklistItems":${JSON.stringify(items)}`;
    detailJson.set(card, held);
  }
  return held;
}

/**
 * `JSON.stringify(taskView(ws, card, {withComments: true, actor}))` from cached pieces, for the
 * most frequent read of all (GET /tasks/{id}): building the view object and stringifying it was
 * most of that request's own work (the target: a get within 2x of a bare server sending the same bytes).
 */
export function taskViewJson(ws: WorkspaceState, card: Card, actor: string): string {
  return `${fieldsJsonOf(card).text}${perReadJson(ws, card, ws.index.positionOf(card), actor)}${detailJsonOf(card)}${filePathJsonOf(ws, card)}}`;
}

/** Fields that depend on more than the card object: the read model keeps them last, so they are appended. */
const PER_READ_FIELDS: readonly ListField[] = [
  'position',
  'cardState',
  'blocks',
  'blocked',
  'openBlockers',
  'children',
  'related',
  'duplicates',
  'claim',
  'session',
  'filePath',
];

/** The card-only part of a projected entry, without its closing brace, for the last field list asked. */
const projectedJson = new BoundedMemo<Card, { fields: string; text: string; bytes: number }>(CARDS_KEPT);

function cardOnlyValue(card: Card, field: ListField): unknown {
  switch (field) {
    case 'title':
      return titleOf(card.content);
    case 'assignee':
    case 'dueDate':
    case 'completedAt':
    case 'archivedAt':
      return card[field] ?? null;
    case 'actions':
      return card.actions ?? [];
    case 'commentCount':
      return card.comments.length;
    case 'checklist':
      return checklistProgress(card.content);
    case 'blockedBy':
    case 'relatesTo':
    case 'duplicateOf':
      return card[field] ?? [];
    case 'parent':
      return card.parent ?? null;
    default:
      return card[field as keyof Card];
  }
}

function projectedJsonOf(card: Card, fields: readonly ListField[]): { text: string; bytes: number } {
  const key = fields.join(',');
  const held = projectedJson.get(card);
  if (held && held.fields === key) return held;
  const out: Record<string, unknown> = {};
  for (const field of fields) if (!PER_READ_FIELDS.includes(field)) out[field] = cardOnlyValue(card, field);
  const text = JSON.stringify(out).slice(0, -1);
  const made = { fields: key, text, bytes: Buffer.byteLength(text) };
  projectedJson.set(card, made);
  return made;
}

/**
 * Adds a list entry with only the asked fields (in read-model order, as `JSON.stringify` of the
 * projected view would give). The card-only part is kept per card for the field list last asked
 * (cards are immutable: a change is a new object), so a page of `id,title,status` costs a lookup per card.
 */
export function pushProjectedJson(
  out: JsonBytes,
  ws: WorkspaceState,
  card: Card,
  fields: readonly ListField[],
  position: number | undefined,
  actor: string,
): void {
  const part = projectedJsonOf(card, fields);
  out.push(part.text, part.bytes);
  if (fields.includes('position')) out.push(`,"position":${position ?? ws.index.positionOf(card)}`);
  if (fields.includes('cardState')) out.push(cardStateJson(ws.cardStates.stateOf(card.id, actor), 'full'));
  if (fields.includes('blocks')) out.push(`,"blocks":${JSON.stringify(ws.index.blocksOf(card.id))}`);
  if (fields.includes('blocked') || fields.includes('openBlockers')) {
    const open = openBlockerCount(ws, card);
    if (fields.includes('blocked')) out.push(`,"blocked":${open > 0}`);
    if (fields.includes('openBlockers')) out.push(`,"openBlockers":${open}`);
  }
  if (fields.includes('children')) {
    const children = childCount(ws, card.id);
    out.push(`,"children":{"total":${children.total},"done":${children.done}}`);
  }
  if (fields.includes('related')) out.push(`,"related":${JSON.stringify(relatedOf(ws, card))}`);
  if (fields.includes('duplicates'))
    out.push(`,"duplicates":${JSON.stringify(ws.index.linkedFrom('duplicateOf', card.id))}`);
  if (fields.includes('claim')) out.push(claimJson(ws, card, 'full'));
  if (fields.includes('session')) out.push(sessionJson(ws, card, 'full'));
  out.push(fields.includes('filePath') ? `${filePathJsonOf(ws, card)}}` : '}');
}
