import Fuse, { type FuseIndex, type FuseResult } from 'fuse.js';
import type { Card } from './model';
import { FUZZY_OPTIONS, fuzzyDocOf, type FuzzyDoc } from './search';

type IndexRecord = FuseIndex<FuzzyDoc>['records'][number];

/** A field's value as fuse.js indexed it: one string, or one per array element (labels). */
type RecordValue = { v: string } | { v: string }[];

interface Entry {
  doc: FuzzyDoc;
  /** fuse.js's own index record of the doc, made once per card version. */
  record: IndexRecord;
  /** The record's values by key index, lowercased as fuse.js does, for the candidate filter. */
  lower: Map<string, string | string[]>;
}

const KEYS = FUZZY_OPTIONS.keys;
/** One fuse.js index used only to make records, so every record carries the same keys and norms. */
const RECORD_MAKER = Fuse.createIndex<FuzzyDoc>(KEYS, []);
/** fuse.js (bitap) splits longer patterns into chunks and matches any chunk; no filter then. */
const MAX_FILTERED_PATTERN = 32;

function entryOf(card: Card): Entry {
  const doc = fuzzyDocOf(card);
  const record = RECORD_MAKER._createObjectRecord(doc, 0);
  const lower = new Map<string, string | string[]>();
  for (const [key, value] of Object.entries(record.$ as Record<string, RecordValue>)) {
    lower.set(key, Array.isArray(value) ? value.map((item) => item.v.toLowerCase()) : value.v.toLowerCase());
  }
  return { doc, record, lower };
}

/**
 * The record with only the fields (and array elements) that hold one of the pieces: fuse.js finds
 * nothing in the others, and a field without a match adds nothing to a score. Null: no field can match.
 */
function narrowed(entry: Entry, pieces: string[], i: number): IndexRecord | null {
  const holds = (text: string) => pieces.some((piece) => text.includes(piece));
  const fields: Record<string, RecordValue> = {};
  let any = false;
  const values = entry.record.$ as Record<string, RecordValue>;
  for (const [key, lower] of entry.lower) {
    const value = values[key];
    if (Array.isArray(lower)) {
      const kept = (value as { v: string }[]).filter((_item, n) => holds(lower[n]));
      if (kept.length) fields[key] = kept;
      any ||= kept.length > 0;
    } else if (holds(lower)) {
      fields[key] = value;
      any = true;
    }
  }
  return any ? { i, $: fields } as IndexRecord : null;
}

/**
 * The largest number of typos fuse.js accepts for a pattern of this length: with ignoreLocation its
 * score is errors / length and a field matches when the score is at most the threshold.
 */
export function maxErrors(patternLength: number): number {
  let errors = 0;
  while (errors + 1 < patternLength && (errors + 1) / patternLength <= FUZZY_OPTIONS.threshold) errors++;
  return errors;
}

/**
 * Pieces of which at least one occurs, unchanged, in any text the pattern matches with at most
 * `maxErrors` edits: k edits touch at most k of k + 1 disjoint pieces (the pigeonhole principle).
 * Null when no such filter is sound (long patterns).
 */
export function exactPieces(pattern: string): string[] | null {
  if (pattern.length === 0 || pattern.length > MAX_FILTERED_PATTERN) return null;
  const count = maxErrors(pattern.length) + 1;
  const pieces: string[] = [];
  for (let i = 0; i < count; i++) pieces.push(pattern.slice(Math.floor((i * pattern.length) / count), Math.floor(((i + 1) * pattern.length) / count)));
  return pieces;
}

/**
 * The fuzzy index of one board. Each card's fuse.js record is made when the card changes (O(1) per
 * write). A search first keeps the fields where one of the pattern's exact pieces occurs (every
 * field fuse.js can match holds one), then lets fuse.js score the cards left, in board order. Scores do
 * not depend on other documents and equal scores keep board order, so the answer is exactly what
 * fuse.js over the whole board gives, at a fraction of the cost.
 */
export class FuzzyBoardIndex {
  /** In the order a rebuild from the board map would give: a changed card moves to the end. */
  private entries = new Map<string, Entry>();

  constructor(cards: Iterable<Card>) {
    for (const card of cards) this.put(card);
  }

  put(card: Card): void {
    this.entries.delete(card.id);
    this.entries.set(card.id, entryOf(card));
  }

  remove(card: Card): void {
    if (this.entries.get(card.id)?.doc.card === card) this.entries.delete(card.id);
  }

  search(text: string): FuseResult<FuzzyDoc>[] {
    const pieces = exactPieces(text.toLowerCase());
    const docs: FuzzyDoc[] = [];
    const records: IndexRecord[] = [];
    for (const entry of this.entries.values()) {
      const record = pieces ? narrowed(entry, pieces, docs.length) : { ...entry.record, i: docs.length };
      if (!record) continue;
      records.push(record);
      docs.push(entry.doc);
    }
    return new Fuse(docs, FUZZY_OPTIONS, Fuse.parseIndex<FuzzyDoc>({ keys: RECORD_MAKER.keys, records })).search(text);
  }
}
