import type { Card, LabelDefinition } from '../server/core/model';
import { PRIORITIES, type Priority } from '../server/core/shapes/vocabulary';
import { STANDARD_COLUMNS } from '../server/core/defaults';
import { baseCardId, cardIdCandidates } from '../server/core/ids';
import { spreadKeys } from '../server/core/ordering';

/**
 * A realistic, deterministic set of cards: the same count always gives the same cards, so two runs
 * (or two storage providers) are measured over identical data.
 */

export const COLUMN_IDS = STANDARD_COLUMNS.map((c) => c.id);

/** Words for exact and fuzzy search: the word sits in about one card in twenty. */
export const SEARCH_WORD = 'webhook';
export const MISSPELLED_WORD = 'webhok';

const LABEL_GROUPS: Record<string, string[]> = {
  type: ['bug', 'feature', 'chore', 'docs', 'refactor', 'spike'],
  area: ['frontend', 'backend', 'api', 'database', 'infra', 'ci', 'security', 'mobile'],
  effort: ['quick-win', 'large', 'needs-design'],
  impact: ['customer', 'internal', 'regression'],
};

const LABEL_COLORS = ['#ef4444', '#f97316', '#eab308', '#22c55e', '#06b6d4', '#3b82f6', '#8b5cf6', '#ec4899'];

export function labelDefinitions(): Record<string, LabelDefinition> {
  const labels: Record<string, LabelDefinition> = {};
  let i = 0;
  for (const [group, names] of Object.entries(LABEL_GROUPS)) {
    for (const name of names) labels[name] = { color: LABEL_COLORS[i++ % LABEL_COLORS.length], group };
  }
  return labels;
}

const ALL_LABELS = Object.values(LABEL_GROUPS).flat();
const ASSIGNEES = ['alice', 'bob', 'chen', 'dana', 'emeka', 'farah', 'gus', 'hana'];
const VERBS = ['Fix', 'Add', 'Refactor', 'Document', 'Investigate', 'Speed up', 'Remove', 'Migrate', 'Test', 'Polish'];
const SUBJECTS = [
  'login redirect',
  'export to CSV',
  'dark mode toggle',
  'search ranking',
  'payment retries',
  'image upload',
  'notification badge',
  'audit log',
  'rate limiter',
  'session timeout',
  'onboarding tour',
  'billing page',
  'invoice PDF',
  'team invites',
  'password reset',
  'sidebar layout',
  'API pagination',
  'cache warm-up',
];
const QUALIFIERS = [
  'on Safari',
  'for admins',
  'in the mobile app',
  'behind the proxy',
  'for large teams',
  'after upgrade',
  '',
  '',
];

/** A small deterministic pseudo-random generator (mulberry32), so data is the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function titleFor(i: number, random: () => number): string {
  const subject = i % 20 === 7 ? `${SEARCH_WORD} delivery` : pick(random, SUBJECTS);
  const qualifier = pick(random, QUALIFIERS);
  // The number keeps titles (and so ids) distinct without long collision suffixes.
  return `${pick(random, VERBS)} ${subject}${qualifier ? ` ${qualifier}` : ''} ${i + 1}`;
}

function longBody(title: string, random: () => number): string {
  const steps = Array.from(
    { length: 3 + Math.floor(random() * 5) },
    (_, i) => `${i + 1}. ${pick(random, VERBS)} the ${pick(random, SUBJECTS)} step`,
  );
  return [
    `# ${title}`,
    '',
    'Users report that the behaviour differs between environments. This card collects what we know,',
    'what we tried and what is left, so whoever picks it up does not start from zero.',
    '',
    '## Steps to reproduce',
    '',
    ...steps,
    '',
    '## Notes',
    '',
    '- [ ] confirm on staging',
    '- [x] collect logs from the last incident',
    '- [ ] write a regression test',
    '',
    '```ts',
    `const retries = ${Math.floor(random() * 9) + 1};`,
    'await client.send(request, { retries });',
    '```',
    '',
    `See also the ${pick(random, SUBJECTS)} discussion in the weekly notes.`,
    '',
  ].join('\n');
}

function contentFor(title: string, i: number, random: () => number, workTracking: boolean): string {
  // Without work tracking the notes are plain bullets: the same text, no checklist.
  if (i % 10 === 3)
    return workTracking ? longBody(title, random) : longBody(title, random).replace(/^- \[[ x]\] /gm, '- ');
  if (i % 3 === 0) return `# ${title}\n\nShort note about the ${pick(random, SUBJECTS)}.\n`;
  return `# ${title}\n`;
}

function labelsFor(random: () => number): string[] {
  const count = Math.floor(random() * 4);
  const chosen = new Set<string>();
  while (chosen.size < count) chosen.add(pick(random, ALL_LABELS));
  return [...chosen];
}

function metadataFor(i: number, random: () => number): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    sprint: `2025-S${String(1 + (i % 26)).padStart(2, '0')}`,
    estimate: 1 + Math.floor(random() * 13),
  };
  const jira = `KAN-${1000 + i}`;
  if (i % 8 === 0) metadata.links = { jira, pr: `#${200 + (i % 700)}` };
  else if (i % 4 === 0) metadata.links = { jira };
  if (i % 9 === 0) metadata.customer = pick(random, ['acme', 'globex', 'initech', 'umbrella']);
  return metadata;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `count` cards spread round-robin over the five standard columns of the default board. With
 * `workTracking` (the default) one card in ten has a checklist and one in five is blocked by the
 * card made before it; without, the same cards carry neither (`npm run bench -- --plain-cards`).
 */
export function generateCards(count: number, now = new Date(), workTracking = true): Card[] {
  const random = seededRandom(count);
  const takenIds = new Set<string>();
  const perColumn = COLUMN_IDS.map(
    (_, c) => Math.floor(count / COLUMN_IDS.length) + (c < count % COLUMN_IDS.length ? 1 : 0),
  );
  const keys = perColumn.map((n) => spreadKeys(n));
  const nextKey = COLUMN_IDS.map(() => 0);
  const lastColumn = COLUMN_IDS[COLUMN_IDS.length - 1];
  const cards: Card[] = [];
  for (let i = 0; i < count; i++) {
    const column = i % COLUMN_IDS.length;
    const title = titleFor(i, random);
    const created = new Date(now.getTime() - Math.floor(random() * 120) * DAY_MS - Math.floor(random() * DAY_MS));
    const modified = new Date(Math.min(now.getTime(), created.getTime() + Math.floor(random() * 10) * DAY_MS));
    let id = '';
    for (const candidate of cardIdCandidates(baseCardId(title, created))) {
      if (!takenIds.has(candidate)) {
        id = candidate;
        break;
      }
    }
    takenIds.add(id);
    const status = COLUMN_IDS[column];
    cards.push({
      id,
      boardId: 'default',
      status,
      content: contentFor(title, i, random, workTracking),
      ...(workTracking && i % 5 === 1 ? { blockedBy: [cards[i - 1].id] } : {}),
      priority: PRIORITIES[i % PRIORITIES.length] as Priority,
      assignee: i % 5 === 4 ? undefined : pick(random, ASSIGNEES),
      dueDate: i % 6 === 0 ? new Date(created.getTime() + 30 * DAY_MS).toISOString().slice(0, 10) : undefined,
      labels: labelsFor(random),
      metadata: metadataFor(i, random),
      forms: [],
      formData: {},
      attachments: [],
      comments: [],
      order: keys[column][nextKey[column]++],
      created: created.toISOString(),
      modified: modified.toISOString(),
      completedAt: status === lastColumn ? modified.toISOString() : undefined,
    });
  }
  return cards;
}
