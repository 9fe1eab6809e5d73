import type { TestServer } from '../helpers/testServer';
import { startUi, stopUi, type UiContext } from './uiHelpers';

/** A board that looks like a real week of work, for the screenshots and the render tests. */
export const DEMO_LABELS: Record<string, { color: string; group?: string }> = {
  bug: { color: '#ef4444', group: 'type' },
  feature: { color: '#3b82f6', group: 'type' },
  docs: { color: '#14b8a6', group: 'type' },
  frontend: { color: '#8b5cf6', group: 'area' },
  backend: { color: '#f59e0b', group: 'area' },
  'good first issue': { color: '#22c55e' },
};

function daysFromToday(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return date.toISOString().slice(0, 10);
}

export interface DemoCard {
  title: string;
  status: string;
  priority?: string;
  assignee?: string;
  dueInDays?: number;
  labels?: string[];
  body?: string;
  metadata?: Record<string, unknown>;
}

export const DEMO_CARDS: DemoCard[] = [
  {
    title: 'Sketch the onboarding flow',
    status: 'backlog',
    priority: 'low',
    labels: ['feature', 'frontend'],
    assignee: 'Maya Chen',
  },
  {
    title: 'Evaluate SQLite for large workspaces',
    status: 'backlog',
    priority: 'medium',
    labels: ['backend'],
    metadata: { estimate: 5 },
  },
  {
    title: 'Write a migration guide for v2 config',
    status: 'backlog',
    priority: 'low',
    labels: ['docs', 'good first issue'],
  },
  {
    title: 'Keyboard shortcuts cheat sheet',
    status: 'todo',
    priority: 'medium',
    labels: ['docs', 'frontend'],
    assignee: 'Sam Rivera',
    dueInDays: 5,
  },
  {
    title: 'Crash when a card file has tabs in YAML',
    status: 'todo',
    priority: 'critical',
    labels: ['bug', 'backend'],
    assignee: 'Ada Okafor',
    dueInDays: -2,
  },
  {
    title: 'Webhook retries with backoff',
    status: 'todo',
    priority: 'high',
    labels: ['feature', 'backend'],
    assignee: 'Ada Okafor',
    dueInDays: 9,
    metadata: { jira: 'KB-42' },
  },
  {
    title: 'Drag and drop between columns',
    status: 'in-progress',
    priority: 'high',
    labels: ['feature', 'frontend'],
    assignee: 'Maya Chen',
    dueInDays: 0,
  },
  {
    title: 'Attachment previews for images',
    status: 'in-progress',
    priority: 'medium',
    labels: ['feature'],
    assignee: 'Sam Rivera',
    dueInDays: 3,
  },
  {
    title: 'Fuzzy search ranks exact hits first',
    status: 'review',
    priority: 'medium',
    labels: ['backend'],
    assignee: 'Lena Fischer',
  },
  {
    title: 'Dark theme contrast pass',
    status: 'review',
    priority: 'low',
    labels: ['frontend', 'bug'],
    assignee: 'Maya Chen',
    dueInDays: 1,
  },
  {
    title: 'Release notes for 0.1',
    status: 'done',
    priority: 'low',
    labels: ['docs'],
    assignee: 'Lena Fischer',
    dueInDays: -4,
  },
  {
    title: 'Atomic writes for card files',
    status: 'done',
    priority: 'high',
    labels: ['backend'],
    assignee: 'Ada Okafor',
  },
];

/** `.kanban.json` for the demo: label definitions (colors and groups). */
export const DEMO_CONFIG = { version: 2, labels: DEMO_LABELS };

/** Create the demo cards through the API; start the server with DEMO_CONFIG for their label colors. */
export async function seedDemoBoard(server: TestServer, cards: DemoCard[] = DEMO_CARDS): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const demo of cards) {
    const body: Record<string, unknown> = {
      content: `# ${demo.title}\n\n${demo.body ?? 'Details in the description.'}\n`,
      status: demo.status,
      priority: demo.priority ?? 'medium',
      labels: demo.labels ?? [],
    };
    if (demo.assignee) body.assignee = demo.assignee;
    if (demo.dueInDays !== undefined) body.dueDate = daysFromToday(demo.dueInDays);
    if (demo.metadata) body.metadata = demo.metadata;
    const answer = await server.api('POST', '/api/tasks', body);
    if (answer.status !== 201) throw new Error(`card ${demo.title}: ${answer.body?.error}`);
    ids.set(demo.title, answer.body?.data.id);
  }
  return ids;
}

/** A browser page on a server seeded with the demo board, shown once its cards are there. */
export async function startDemoUi(): Promise<{ ui: UiContext; ids: Map<string, string> }> {
  const ui = await startUi({ config: DEMO_CONFIG });
  const ids = await seedDemoBoard(ui.server);
  await ui.page.reload();
  await ui.page.waitForSelector('[data-card-id]');
  return { ui, ids };
}

/**
 * Mocha hooks for a suite on the demo board: `ui` and `ids` are filled in before its first test,
 * and the browser and server stop after its last.
 */
export function useDemoUi(): { ui: UiContext; ids: Map<string, string> } {
  const demo = { ui: {} as UiContext, ids: new Map<string, string>() };
  before(async () => {
    const started = await startDemoUi();
    Object.assign(demo.ui, started.ui);
    for (const [title, id] of started.ids) demo.ids.set(title, id);
  });
  after(() => stopUi(demo.ui.browser ? demo.ui : undefined));
  return demo;
}
