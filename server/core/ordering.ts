/**
 * Fractional ordering keys: strings that sort with plain `<`, and between any two of which another
 * key exists, so a move rewrites only the moved card.
 *
 * A key is an integer part and an optional fraction. The integer part is a length digit followed by
 * that many base-36 digits, so longer integers sort after shorter ones and appending a card grows
 * keys only logarithmically. The fraction is a base-36 string that never ends in '0', which leaves
 * room for a key between any two fractions.
 */
const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';
const BASE = DIGITS.length;
/** Where the first key of an empty column starts: far from zero, so prepends rarely run out. */
const START = 18 * BASE * BASE;

export class OrderingExhaustedError extends Error {}

function encodeInt(n: number): string {
  const digits = n.toString(36);
  return DIGITS[digits.length] + digits;
}

interface ParsedKey {
  int: number;
  intPart: string;
  fraction: string;
}

export function isValidKey(key: unknown): key is string {
  if (typeof key !== 'string' || key.length < 2) return false;
  const length = DIGITS.indexOf(key[0]);
  if (length < 1 || key.length < 1 + length) return false;
  if (!/^[0-9a-z]+$/.test(key)) return false;
  const fraction = key.slice(1 + length);
  return !fraction.endsWith('0');
}

function parse(key: string): ParsedKey {
  if (!isValidKey(key)) throw new Error(`invalid ordering key: ${key}`);
  const length = DIGITS.indexOf(key[0]);
  const intPart = key.slice(0, 1 + length);
  return { int: parseInt(intPart.slice(1), 36), intPart, fraction: key.slice(1 + length) };
}

function digitAt(text: string, index: number, pastEnd: number): number {
  return index < text.length ? DIGITS.indexOf(text[index]) : pastEnd;
}

/** A fraction strictly greater than `low` and, when given, strictly less than `high`. */
function fractionBetween(low: string, high: string | null): string {
  let prefix = '';
  for (let i = 0; ; i++) {
    const lo = digitAt(low, i, 0);
    const hi = high === null ? BASE : digitAt(high, i, BASE);
    if (hi - lo > 1) return prefix + DIGITS[Math.floor((lo + hi) / 2)];
    prefix += DIGITS[lo];
    // With one digit of room, keeping the lower digit already puts us below `high`.
    if (hi - lo === 1) high = null;
  }
}

/** A key strictly between `before` and `after`; null means open on that side. */
export function keyBetween(before: string | null, after: string | null): string {
  if (before === null && after === null) return encodeInt(START);
  if (after === null) return encodeInt(parse(before as string).int + 1);
  const b = parse(after);
  if (before === null) {
    if (b.int > 0) return encodeInt(b.int - 1);
    if (b.fraction === '') throw new OrderingExhaustedError('no key before the first one');
    return b.intPart + fractionBefore(b.fraction);
  }
  if (before >= after) throw new Error(`ordering keys out of order: ${before} >= ${after}`);
  const a = parse(before);
  if (a.intPart === b.intPart) return a.intPart + fractionBetween(a.fraction, b.fraction);
  if (b.int - a.int > 1) return encodeInt(Math.floor((a.int + b.int) / 2));
  return a.intPart + fractionBetween(a.fraction, null);
}

/** A non-empty fraction below `fraction` (which is non-empty and never ends in '0'). */
function fractionBefore(fraction: string): string {
  let prefix = '';
  for (let i = 0; i < fraction.length; i++) {
    const digit = DIGITS.indexOf(fraction[i]);
    if (digit > 1) return prefix + DIGITS[Math.floor(digit / 2)];
    prefix += DIGITS[digit];
    if (digit === 1 && i === fraction.length - 1) break;
  }
  // fraction is 0...01: go one level deeper below it.
  return prefix.slice(0, -1) + '0' + 'i';
}

/** `count` ascending keys, for seeding or re-keying a whole column. */
export function spreadKeys(count: number): string[] {
  const keys: string[] = [];
  let previous: string | null = null;
  for (let i = 0; i < count; i++) {
    previous = keyBetween(previous, null);
    keys.push(previous);
  }
  return keys;
}
