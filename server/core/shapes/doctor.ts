import { Type } from '@sinclair/typebox';
import { named } from './names';
import { flag, nullableText, choice, text, textList } from './parts';

/** What `kanban doctor` (GET /workspace/doctor) finds, and what its fix (POST /workspace/doctor/fix) did. */

/** The kinds of problem `kanban doctor` finds, each with what `--fix` does about it. */
export const DOCTOR_PROBLEM_KINDS = [
  'duplicate-id', // two different cards claim one id: fix renames the second's file to the id it is served as
  'stale-copy', // an interrupted move left a second file of a card: fix moves it under .kanban/.state/recovered/
  'folder-mismatch', // a card file's folder disagrees with its status: fix moves the file
  'name-mismatch', // a card file's name is not its id (renamed by hand): fix renames it
  'invalid-file', // a card file that does not parse: never fixed (it stays, and is still reported)
  'unknown-config-key', // a key of .kanban.json this version does not know: reported only
  'orphaned-status', // a card in a column its board no longer has: reported only (add the column or move the card)
  'gitignore-outdated', // .kanban/.gitignore lacks lines for files the service generates: fix adds them
  'not-ignored', // a generated file git would pick up: fixed with the .gitignore when it is under .kanban/
] as const;

export const DoctorProblemSchema = Type.Object({
  kind: choice(DOCTOR_PROBLEM_KINDS, 'what is wrong (see docs/git.md: kanban doctor)'),
  path: nullableText('the file concerned, relative to the workspace; null for the workspace as a whole'),
  message: text('what is wrong and what to do about it'),
  fixable: flag('whether POST /workspace/doctor/fix (kanban doctor --fix) repairs it without losing anything'),
});

export const DoctorReportSchema = named(
  'DoctorReport',
  Type.Object({
    ok: flag('true when no problem was found'),
    problems: Type.Array(DoctorProblemSchema, { description: 'every problem found, none changed by asking' }),
  }),
);

export const DoctorFixReportSchema = named(
  'DoctorFixReport',
  Type.Object({
    ok: flag('true when no problem remains'),
    problems: Type.Array(DoctorProblemSchema, {
      description: 'the problems that remain (a file that does not parse always stays, and is still reported)',
    }),
    fixed: textList('what was repaired, one line each'),
  }),
);
