import type { Card } from './model';
import { haystackOf } from './search';

/**
 * Typo tolerance of fuzzy search, word by word. fuse.js (bitap) counts a swap of two letters as two
 * errors, so `lgoin` never reached "Fix login" under its threshold. The rule here, beside fuse.js:
 * every word of the query must be found in the card, either as typed (a substring, as exact search
 * does) or as a word of the card within a small Damerau-Levenshtein distance (optimal string
 * alignment: insert, delete, substitute, or swap two neighbouring letters, each one edit):
 *
 * - words of 1 to 3 letters: no typo (too many short words are one edit apart);
 * - 4 to 7 letters: one edit (`lgoin`, `logn`, `loggin` -> login);
 * - 8 letters and more: two edits (`dashbaord` -> dashboard, `notifcaton` -> notification).
 *
 * The card's words are those of the exact-search text (title, content, id, assignee, labels,
 * metadata values, comment bodies), split on anything that is not a letter or a digit.
 */

const WORD = /[\p{L}\p{N}]+/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/u;
/** The shortest board word a query word can be a typo of: 4 letters, one edit. */
const MIN_CANDIDATE = 3;

export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** Edits allowed for a query word of this length. */
export function wordTypoBudget(word: string): number {
  const letters = [...word].length;
  return letters < 4 ? 0 : letters < 8 ? 1 : 2;
}

/** Optimal-string-alignment distance, or `max + 1` as soon as it must exceed `max`. */
export function typoDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, beforePrevious[j - 2] + 1);
      current[j] = best;
      rowMin = Math.min(rowMin, best);
    }
    if (rowMin > max) return max + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length];
}

/**
 * Letters of `candidate` that `word` does not have at all, counted up to `max + 1`: each needs an
 * insertion or a substitution, so more than the budget rules the candidate out before the full
 * distance is worked out (most of a board's words fail here).
 */
function foreignLetters(candidate: string, word: string, max: number): number {
  let count = 0;
  for (let i = 0; i < candidate.length && count <= max; i++) if (!word.includes(candidate[i])) count++;
  return count;
}

/** One query word and the board words within its budget, with their distance. */
interface WordOptions {
  word: string;
  near: [string, number][];
}

/**
 * The distinct words of one board's cards, bucketed by length: a typo search compares the query
 * words with each distinct word of a reachable length once, not with every card, then checks cards
 * for the few words that came close. Words are added as cards arrive and change, and never taken
 * out while the service runs: counting them per card to know when the last one goes cost more than
 * building the board's fuse.js index, while a word no card holds any more only costs one failed
 * substring check in `typoScore`.
 */
export class BoardVocabulary {
  private byLength = new Map<number, Set<string>>();

  add(card: Card): void {
    for (const word of haystackOf(card).split(NOT_WORD)) {
      if (word.length < MIN_CANDIDATE) continue;
      let bucket = this.byLength.get(word.length);
      if (!bucket) this.byLength.set(word.length, (bucket = new Set()));
      bucket.add(word);
    }
  }

  /** For each query word, the board's words it could be a typo of. */
  optionsFor(text: string): WordOptions[] {
    return wordsOf(text).map((word) => {
      const budget = wordTypoBudget(word);
      const near: [string, number][] = [];
      for (let length = word.length - budget; budget > 0 && length <= word.length + budget; length++) {
        for (const candidate of this.byLength.get(length) ?? []) {
          if (candidate === word || foreignLetters(candidate, word, budget) > budget) continue;
          const distance = typoDistance(word, candidate, budget);
          if (distance <= budget) near.push([candidate, distance]);
        }
      }
      return { word, near };
    });
  }
}

/**
 * Whether the word rule can find a card that fuse.js does not: not for one word without near
 * words, as fuse.js finds every card holding a word as typed.
 */
export function addsToFuse(options: WordOptions[]): boolean {
  return options.length > 1 || options.some((option) => option.near.length > 0);
}

/**
 * The score (0 best, like fuse.js) of a card under the word rule, or null when some query word is
 * in it neither as typed nor within its budget: the edits used over the letters typed.
 */
export function typoScore(card: Card, options: WordOptions[]): number | null {
  if (options.length === 0) return null;
  const text = haystackOf(card);
  let edits = 0;
  let letters = 0;
  for (const { word, near } of options) {
    letters += word.length;
    if (text.includes(word)) continue;
    let best = Infinity;
    for (const [candidate, distance] of near) if (distance < best && text.includes(candidate)) best = distance;
    if (best === Infinity) return null;
    edits += best;
  }
  return edits / letters;
}
