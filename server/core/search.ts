import Fuse from 'fuse.js';
import type { Card } from './model';
import { titleOf } from './model';

export interface MetaFilter {
  path: string[];
  value: string;
}

export interface ParsedQuery {
  text: string;
  meta: MetaFilter[];
}

const META_TOKEN = /(?:^|\s)meta\.([\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*):\s*(?:"([^"]*)"|'([^']*)'|(\S+))/gu;

/** Take `meta.<path>: value` tokens (value plain or quoted) out of a free-text query. */
export function parseQuery(q: string): ParsedQuery {
  const meta: MetaFilter[] = [];
  const text = q.replace(META_TOKEN, (_all, field: string, dq?: string, sq?: string, plain?: string) => {
    meta.push({ path: field.split('.'), value: dq ?? sq ?? plain ?? '' });
    return ' ';
  });
  return { text: text.replace(/\s+/g, ' ').trim(), meta };
}

/** Values found at a dot path; arrays along the way fan out. Only own keys count, never `constructor` or `__proto__` of every object. */
export function valuesAt(root: unknown, pathParts: string[]): unknown[] {
  let current: unknown[] = [root];
  for (const part of pathParts) {
    const next: unknown[] = [];
    for (const value of current) {
      if (Array.isArray(value)) value.forEach((v) => isRecord(v) && Object.hasOwn(v, part) && next.push(v[part]));
      else if (isRecord(value) && Object.hasOwn(value, part)) next.push(value[part]);
    }
    current = next;
  }
  return current.flatMap((v) => (Array.isArray(v) ? v : [v]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Every scalar value of an object tree, as text. */
export function flattenValues(value: unknown, out: string[] = []): string[] {
  if (value === null || value === undefined) return out;
  if (typeof value === 'object') {
    for (const v of Array.isArray(value) ? value : Object.values(value)) flattenValues(v, out);
  } else {
    out.push(String(value));
  }
  return out;
}

function commentBodies(card: Card): string[] {
  return card.comments.map((comment) => comment.content);
}

/** The lowercase text exact search looks in, cached per card object (cards are immutable). */
const haystacks = new WeakMap<Card, string>();

export function haystackOf(card: Card): string {
  let text = haystacks.get(card);
  if (text === undefined) {
    text = [
      titleOf(card.content),
      card.content,
      card.id,
      card.assignee ?? '',
      ...card.labels,
      ...flattenValues(card.metadata),
      ...commentBodies(card),
    ]
      .join('\n')
      .toLowerCase();
    haystacks.set(card, text);
  }
  return text;
}

export function exactTextMatch(card: Card, text: string): boolean {
  return text === '' || haystackOf(card).includes(text.toLowerCase());
}

/** Edit distance, bounded: returns early once it must exceed `max`. */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      rowMin = Math.min(rowMin, current[j]);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length];
}

/** A typo budget that grows with the length of what was typed. */
export function typoBudget(text: string): number {
  return text.length <= 3 ? 0 : text.length <= 6 ? 1 : 2;
}

/** Does the card's metadata hold `filter.value` at `filter.path`? Substring, case-insensitive. */
export function metaMatches(card: Card, filter: MetaFilter, fuzzy: boolean): boolean {
  const wanted = filter.value.toLowerCase();
  return valuesAt(card.metadata, filter.path).some((v) => {
    if (v === null || v === undefined || typeof v === 'object') return false;
    const have = String(v).toLowerCase();
    if (have.includes(wanted)) return true;
    if (!fuzzy) return false;
    const budget = typoBudget(wanted);
    return have
      .split(/\s+/)
      .concat(have)
      .some((word) => boundedDistance(word, wanted, budget) <= budget);
  });
}

/** Only this much of the content is fuzzy-indexed: typo matching over whole documents is slow and noisy. */
const FUZZY_CONTENT_CHARS = 400;

export interface FuzzyDoc {
  card: Card;
  title: string;
  content: string;
  id: string;
  assignee: string;
  labels: string[];
  meta: string;
  comments: string;
}

/** What fuse.js sees of a card: the exact-search fields, with the content and the comments cut short. */
export function fuzzyDocOf(card: Card): FuzzyDoc {
  return {
    card,
    title: titleOf(card.content),
    content: card.content.slice(0, FUZZY_CONTENT_CHARS),
    id: card.id,
    assignee: card.assignee ?? '',
    labels: card.labels,
    meta: flattenValues(card.metadata).join(' '),
    comments: commentBodies(card).join('\n').slice(0, FUZZY_CONTENT_CHARS),
  };
}

/** How fuse.js is asked: the exact-search fields, title weighted most, a fixed typo threshold. */
export const FUZZY_OPTIONS = {
  keys: [
    { name: 'title', weight: 3 },
    { name: 'id', weight: 1 },
    { name: 'labels', weight: 1.5 },
    { name: 'assignee', weight: 1 },
    { name: 'meta', weight: 1 },
    { name: 'content', weight: 1 },
    { name: 'comments', weight: 1 },
  ],
  threshold: 0.35,
  ignoreLocation: true,
  includeScore: true,
};

/** A plain fuse.js index over the cards, built at once (the reference the board index must equal). */
export function buildFuzzyIndex(cards: Card[]): Fuse<FuzzyDoc> {
  return new Fuse(cards.map(fuzzyDocOf), FUZZY_OPTIONS);
}
