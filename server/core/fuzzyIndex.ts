import Fuse, { type FuseIndex, type FuseResult } from 'fuse.js';
import type { Card } from './model';
import { FUZZY_OPTIONS, fuzzyDocOf, type FuzzyDoc } from './search';
import { BoardVocabulary, addsToFuse, typoScore } from './typoMatch';

type IndexRecord = FuseIndex<FuzzyDoc>['records'][number];

/** A field's value as fuse.js indexed it: one string, or one per array element (labels). */
type RecordValue = { v: string } | { v: string }[];

interface Entry {
  card: Card;
  /** The searched fields, lowercased as fuse.js does, joined by NUL: a quick first test per card. */
  lower: string;
}

const KEYS = FUZZY_OPTIONS.keys;
/** One fuse.js index used only to make records, so every record carries the same keys and norms. */
const RECORD_MAKER = Fuse.createIndex<FuzzyDoc>(KEYS, []);
/** fuse.js (bitap) splits longer patterns into chunks and matches any chunk; no filter then. */
const MAX_FILTERED_PATTERN = 32;

function searchedFields(doc: FuzzyDoc): string[] {
  return [doc.title, doc.id, ...doc.labels, doc.assignee, doc.meta, doc.content, doc.comments];
}

/**
 * Only the lowercased text is kept per card: fuse.js documents and records are made at search
 * time for the cards that pass the first test (keeping them for every card cost ~50 MB at 10,000).
 */
function entryOf(card: Card): Entry {
  return {
    card,
    lower: searchedFields(fuzzyDocOf(card))
      .map((field) => field.toLowerCase())
      .join('\u0000'),
  };
}

/**
 * The record with only the fields (and array elements) that hold one of the pieces: fuse.js finds
 * nothing in the others, and a field without a match adds nothing to a score. Null: no field can match.
 */
function narrowed(record: IndexRecord, pieces: string[]): IndexRecord | null {
  const holds = (text: string) => {
    const lower = text.toLowerCase();
    return pieces.some((piece) => lower.includes(piece));
  };
  const fields: Record<string, RecordValue> = {};
  let any = false;
  for (const [key, value] of Object.entries(record.$ as Record<string, RecordValue>)) {
    if (Array.isArray(value)) {
      const kept = value.filter((item) => holds(item.v));
      if (kept.length) fields[key] = kept;
      any ||= kept.length > 0;
    } else if (holds(value.v)) {
      fields[key] = value;
      any = true;
    }
  }
  return any ? ({ i: record.i, $: fields } as IndexRecord) : null;
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
  for (let i = 0; i < count; i++)
    pieces.push(
      pattern.slice(Math.floor((i * pattern.length) / count), Math.floor(((i + 1) * pattern.length) / count)),
    );
  return pieces;
}

/**
 * The fuzzy index of one board: per card, its searched text, made when the card changes (O(1) per
 * write). A search first keeps the fields where one of the pattern's exact pieces occurs (every
 * field fuse.js can match holds one), then lets fuse.js score the cards left, in board order. Scores do
 * not depend on other documents and equal scores keep board order, so the answer is exactly what
 * fuse.js over the whole board gives, at a fraction of the cost.
 */
export class FuzzyBoardIndex {
  /** In the order a rebuild from the board map would give: a changed card moves to the end. */
  private entries = new Map<string, Entry>();
  private vocabulary = new BoardVocabulary();

  constructor(cards: Iterable<Card>) {
    for (const card of cards) this.put(card);
  }

  put(card: Card): void {
    this.entries.delete(card.id);
    this.entries.set(card.id, entryOf(card));
    this.vocabulary.add(card);
  }

  remove(card: Card): void {
    if (this.entries.get(card.id)?.card === card) this.entries.delete(card.id);
  }

  /**
   * What a fuzzy list finds: the fuse.js results with their scores, then the cards only the word
   * rule of core/typoMatch.ts finds (a swapped pair of letters, query words far apart), scored by the
   * share of letters it had to edit. Board order among the added ones.
   */
  searchCards(text: string): { card: Card; score: number }[] {
    const found = this.search(text).map((result) => ({ card: result.item.card, score: result.score ?? 1 }));
    const seen = new Set(found.map((hit) => hit.card.id));
    const options = this.vocabulary.optionsFor(text);
    if (!addsToFuse(options)) return found;
    for (const entry of this.entries.values()) {
      if (seen.has(entry.card.id)) continue;
      const score = typoScore(entry.card, options);
      if (score !== null) found.push({ card: entry.card, score });
    }
    return found;
  }

  search(text: string): FuseResult<FuzzyDoc>[] {
    const pieces = exactPieces(text.toLowerCase());
    const docs: FuzzyDoc[] = [];
    const records: IndexRecord[] = [];
    for (const entry of this.entries.values()) {
      if (pieces && !pieces.some((piece) => entry.lower.includes(piece))) continue;
      const doc = fuzzyDocOf(entry.card);
      const full = RECORD_MAKER._createObjectRecord(doc, docs.length);
      const record = pieces ? narrowed(full, pieces) : full;
      if (!record) continue;
      records.push(record);
      docs.push(doc);
    }
    return new Fuse(docs, FUZZY_OPTIONS, Fuse.parseIndex<FuzzyDoc>({ keys: RECORD_MAKER.keys, records })).search(text);
  }
}
