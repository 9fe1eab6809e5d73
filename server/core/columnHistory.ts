import type { FlowStep, FlowStepKind } from './flowTimeline';
import type { Card } from './model';
import { DELETED_STATUS } from './shapes/vocabulary';

/**
 * A card's column history: one line per change of its column, kept on the card itself (the
 * `columnHistory` list of its frontmatter, or its database row), so the history travels with the
 * card through branches, merges, transfers and migrations, and recording a move writes no file the
 * move did not already write. A line reads `2026-03-03T09:12:44.120Z todo -> in-progress`; an arrival
 * on the board (creation, or a transfer from another board) has nothing before the arrow:
 * `2026-03-02T09:00:00.000Z -> todo`.
 */

const LINE = /^(\S+) (?:(.+?) )?-> (.+)$/;

/** One line of the history: at `at` (ISO 8601), from column `from` (null: an arrival) to `to`. */
export function columnHistoryLine(at: string, from: string | null, to: string): string {
  return `${at} ${from === null ? '' : `${from} `}-> ${to}`;
}

/** The card with the change of its column from `from` (null: it arrives on the board) recorded at `at`. */
export function withColumnStep(card: Card, from: string | null, at: string): Card {
  if (from === card.status) return card;
  return { ...card, columnHistory: [...(card.columnHistory ?? []), columnHistoryLine(at, from, card.status)] };
}

/**
 * The steps of the card's life on its current board: the lines from its last arrival on (a card
 * transferred here brought the lines of its old board, which say nothing of this one), or all of
 * them when none is an arrival (the card is older than its recorded history). A line that does not
 * read as a step (a hand edit gone wrong) is skipped.
 */
export function stepsOfHistory(lines: readonly string[] | undefined): FlowStep[] {
  const steps: FlowStep[] = [];
  let read = 0;
  for (const line of lines ?? []) {
    // Only the first line of all is a creation; a later arrival is a transfer in.
    const step = stepOfLine(line, read === 0);
    if (!step) continue;
    read++;
    if (step.from === null) steps.length = 0;
    steps.push(step);
  }
  return steps;
}

function stepOfLine(line: string, first: boolean): FlowStep | null {
  const match = typeof line === 'string' ? LINE.exec(line.trim()) : null;
  if (!match) return null;
  const at = Date.parse(match[1]);
  if (Number.isNaN(at)) return null;
  const from = match[2] ?? null;
  const to = match[3];
  return { at, kind: kindOf(from, to, first), from, to };
}

function kindOf(from: string | null, to: string, first: boolean): FlowStepKind {
  if (from === null) return first ? 'created' : 'entered';
  if (to === DELETED_STATUS) return 'deleted';
  if (from === DELETED_STATUS) return 'restored';
  return 'moved';
}
