import { closestKey } from '../../server/config/unknownKeys';
import type { CardFileVocabulary } from './cardFileVocabulary';
import { type FieldValue, fieldValues } from './frontmatterFields';

/** A frontmatter value the board does not know, or a status its folder contradicts. */
export interface FrontmatterProblem {
  kind: 'unknown-value' | 'folder-mismatch';
  at: FieldValue;
  message: string;
  /** The value a Quick Fix writes instead, when one is obvious. */
  replacement?: string;
}

type Vocabulary = Pick<CardFileVocabulary, 'columns' | 'priorities' | 'labels' | 'folderStatus' | 'reservedStatuses'>;

/** The nearest known value; with none near enough, the first known one (a Quick Fix still helps). */
function nearest(value: string, known: readonly string[]): string | undefined {
  return closestKey(value, known) ?? known[0];
}

function unknown(at: FieldValue, what: string, known: readonly string[]): FrontmatterProblem {
  const closest = nearest(at.value, known);
  const hint = closest ? ` Did you mean "${closest}"?` : '';
  return {
    kind: 'unknown-value',
    at,
    message: `"${at.value}" is not ${what}; known: ${known.join(', ')}.${hint}`,
    ...(closest ? { replacement: closest } : {}),
  };
}

function statusProblem(at: FieldValue, vocabulary: Vocabulary): FrontmatterProblem | undefined {
  const columns = vocabulary.columns.map((c) => c.id);
  if (vocabulary.reservedStatuses.includes(at.value)) return undefined;
  if (!columns.includes(at.value)) return unknown(at, "a column of this card's board", columns);
  const folder = vocabulary.folderStatus;
  if (at.value === folder || !columns.includes(folder)) return undefined;
  return {
    kind: 'folder-mismatch',
    at,
    message: `status "${at.value}" but the file is in the "${folder}" folder; the status decides, and the file moves on the card's next write.`,
    replacement: folder,
  };
}

/** Everything wrong with the checked fields, each at its value's range. */
export function frontmatterProblems(lines: readonly string[], vocabulary: Vocabulary): FrontmatterProblem[] {
  const problems: FrontmatterProblem[] = [];
  for (const at of fieldValues(lines)) {
    if (at.key === 'status') {
      const problem = statusProblem(at, vocabulary);
      if (problem) problems.push(problem);
    } else if (at.key === 'priority' && !vocabulary.priorities.includes(at.value)) {
      problems.push(unknown(at, 'a priority', vocabulary.priorities));
    } else if (at.key === 'labels' && vocabulary.labels.length && !vocabulary.labels.includes(at.value)) {
      // Without labels in `.kanban.json` any label is free text, so there is nothing to check against.
      problems.push(unknown(at, 'a label of .kanban.json', vocabulary.labels));
    }
  }
  return problems;
}
