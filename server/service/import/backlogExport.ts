import * as yaml from 'js-yaml';
import type { TaskView } from '../../core/model';
import { effectiveDefaultStatus } from '../boards';
import { selectTasks } from '../taskQueries';
import { taskView } from '../views';
import type { Workspace } from '../workspace';
import type { SourceFiles } from './importTypes';

/**
 * A board as a Backlog.md project: the files of its `backlog/` folder, paths relative to it.
 * `config.yml` lists the board's columns as statuses, the last one as "Done"; each live card is
 * `tasks/task-<n> - <Title>.md` (numbered in board order) in Backlog.md's own layout: frontmatter,
 * then the sections it fences with HTML comments. Labels of the group `milestone` become milestones.
 */

const DONE = 'Done';
const SECTIONS = [
  { heading: 'Acceptance Criteria', fence: 'AC', numbered: true },
  { heading: 'Definition of Done', fence: 'DOD', numbered: true },
  { heading: 'Implementation Plan', fence: 'SECTION:PLAN', numbered: false },
  { heading: 'Implementation Notes', fence: 'SECTION:NOTES', numbered: false },
  { heading: 'Final Summary', fence: 'SECTION:FINAL_SUMMARY', numbered: false },
] as const;

type Section = (typeof SECTIONS)[number];

/** The content under the title, cut at the headings Backlog.md has sections for. */
function sectionsOf(content: string): { description: string; parts: Map<Section, string> } {
  const body = content.replace(/^\s*#[ \t]+.*(\r?\n|$)/, '');
  const parts = new Map<Section, string>();
  let description = '';
  let current: Section | undefined;
  for (const line of body.split('\n')) {
    const section = SECTIONS.find((s) => new RegExp(`^##\\s+${s.heading}\\s*$`, 'i').test(line));
    if (section) current = section;
    else if (current) parts.set(current, `${parts.get(current) ?? ''}${line}\n`);
    else description += `${line}\n`;
  }
  return { description: description.trim(), parts };
}

function sectionText(section: Section, text: string): string {
  let n = 0;
  const lines = section.numbered
    ? text.trim().replace(/^([ \t]*[-*] \[[ xX]\]) /gm, (item) => `${item}#${++n} `)
    : text.trim();
  const fence = section.fence;
  const spacer = section.numbered ? '' : '\n';
  return `## ${section.heading}\n${spacer}<!-- ${fence}:BEGIN -->\n${lines}\n<!-- ${fence}:END -->\n`;
}

function bodyOf(content: string): string {
  const { description, parts } = sectionsOf(content);
  const out = [
    `## Description\n\n<!-- SECTION:DESCRIPTION:BEGIN -->\n${description}\n<!-- SECTION:DESCRIPTION:END -->\n`,
  ];
  for (const section of SECTIONS) if (parts.get(section)?.trim()) out.push(sectionText(section, parts.get(section)!));
  return out.join('\n');
}

/** Backlog.md's file name: the title with spaces as `-` and only letters, digits, `-` and `_` kept. */
function fileTitle(title: string): string {
  return (
    title
      .replace(/[^\p{L}\p{N} ._-]/gu, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 60) || 'task'
  );
}

const stamp = (iso: string) => iso.slice(0, 16).replace('T', ' ');

const frontmatter = (fields: Record<string, unknown>) =>
  `---\n${yaml.dump(fields, { lineWidth: -1, noRefs: true })}---\n`;

export function exportBacklog(ws: Workspace, boardId: string): SourceFiles {
  const board = ws.board(boardId);
  const last = board.columns[board.columns.length - 1];
  const statusName = (status: string) =>
    status === last.id ? DONE : (board.columns.find((c) => c.id === status)?.name ?? status);
  const tasks: TaskView[] = selectTasks(ws, boardId, {}).map(({ card, position }) => taskView(ws, card, { position }));
  const ids = new Map(tasks.map((t, i) => [t.id, `TASK-${i + 1}`]));
  const milestones = new Map<string, string>();
  for (const [name, def] of Object.entries(ws.config.labels))
    if (def.group === 'milestone') milestones.set(name, `m-${milestones.size}`);
  const files: SourceFiles['files'] = tasks.map((task, i) => {
    const milestone = task.labels.find((l) => milestones.has(l));
    const parent = task.parent ?? undefined;
    const fields: Record<string, unknown> = {
      id: ids.get(task.id),
      title: task.title,
      status: statusName(task.status),
      assignee: task.assignee ? [`@${task.assignee}`] : [],
      created_date: stamp(task.created),
      ...(task.dueDate ? { due_date: task.dueDate.slice(0, 10) } : {}),
      labels: task.labels.filter((l) => l !== milestone),
      ...(milestone ? { milestone: milestones.get(milestone) } : {}),
      dependencies: (task.blockedBy ?? []).map((id) => ids.get(id)).filter(Boolean),
      ...(parent && ids.has(parent) ? { parent_task_id: ids.get(parent) } : {}),
      priority: task.priority === 'critical' ? 'high' : task.priority,
      ordinal: (i + 1) * 1000,
    };
    return {
      path: `tasks/task-${i + 1} - ${fileTitle(task.title)}.md`,
      content: `${frontmatter(fields)}\n${bodyOf(task.content)}`,
    };
  });
  for (const [name, id] of milestones)
    files.push({
      path: `milestones/${id} - ${fileTitle(name)}.md`,
      content: `${frontmatter({ id, title: name })}\n## Description\n\nMilestone: ${name}\n`,
    });
  const statuses = [...board.columns.slice(0, -1).map((c) => c.name), DONE];
  const config = {
    project_name: board.name,
    default_status: statusName(effectiveDefaultStatus(ws, board)),
    statuses,
    labels: [],
    date_format: 'yyyy-mm-dd',
    auto_commit: false,
    task_prefix: 'task',
  };
  files.unshift({ path: 'config.yml', content: yaml.dump(config, { lineWidth: -1, flowLevel: 1 }) });
  return { files };
}
