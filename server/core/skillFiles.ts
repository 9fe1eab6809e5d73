import { AGENT_LOOP } from './agentLoop';
import { ValidationError } from './errors';
import { findSection, sectionBlock, withSection, type FoundSection } from './markedSection';

/**
 * Where each agent tool reads its instructions, and what `kanban skill install` puts there: the agent
 * loop (core/agentLoop.ts) between `<!-- kanban:skill v<version> -->` markers, so `kanban skill check`
 * can tell a copy of another kanban version, or one edited by hand, from the current one. Files of
 * their own (Claude's skill, Cursor's rule) also get the frontmatter their tool reads; shared files
 * (AGENTS.md, Copilot's instructions) get only the block, and the rest of the file is left alone.
 */

export const SKILL_TARGETS = ['claude', 'agents', 'copilot', 'cursor'] as const;
export type SkillTarget = (typeof SKILL_TARGETS)[number];

/** AGENTS.md: the one file most agent tools read (Codex, Copilot's agent, Cursor, Gemini, ...). */
export const DEFAULT_SKILL_TARGET: SkillTarget = 'agents';

const SECTION = 'skill';

// Plain YAML scalars: no ": " or " #" inside, so every YAML reader takes them as they are.
const DESCRIPTION =
  "Pick up, report on and finish cards of this repository's kanban board with the kanban command. Use when asked to work on the board, take the next task, or report progress.";

interface TargetFile {
  /** Relative to the workspace folder. */
  file: string;
  /** Frontmatter lines of a file kanban owns whole; absent for a shared file. */
  frontmatter?: string[];
}

export const SKILL_FILES: Record<SkillTarget, TargetFile> = {
  claude: { file: '.claude/skills/kanban/SKILL.md', frontmatter: ['name: kanban', `description: ${DESCRIPTION}`] },
  agents: { file: 'AGENTS.md' },
  copilot: { file: '.github/copilot-instructions.md' },
  // Cursor's "agent requested" rule: the agent loads it when the description fits the task.
  cursor: { file: '.cursor/rules/kanban.mdc', frontmatter: [`description: ${DESCRIPTION}`, 'alwaysApply: false'] },
};

const versionAttr = (version: string) => `v${version}`;

function skillBlock(version: string): string {
  return sectionBlock(SECTION, AGENT_LOOP, versionAttr(version));
}

/** The file as `install` leaves it, given what it holds now (null: no file). */
export function installedText(target: SkillTarget, version: string, current: string | null): string {
  const { file, frontmatter } = SKILL_FILES[target];
  if (!frontmatter) return withSection(current, SECTION, skillBlock(version), file);
  return `---\n${frontmatter.join('\n')}\n---\n\n${skillBlock(version)}\n`;
}

export type SkillState =
  | { state: 'ok' }
  | { state: 'missing' }
  /** Written by another version of kanban. */
  | { state: 'outdated'; installed: string }
  /** Changed by hand: this version's marker with other text, markers gone from a file of its own, or broken ones. */
  | { state: 'edited'; problem?: string };

/** How the copy in a target's file compares with what this version of kanban would install. */
export function skillState(target: SkillTarget, version: string, current: string | null): SkillState {
  if (current === null) return { state: 'missing' };
  let found: FoundSection | null;
  try {
    found = findSection(current, SECTION, SKILL_FILES[target].file);
  } catch (error) {
    if (error instanceof ValidationError) return { state: 'edited', problem: error.message };
    throw error;
  }
  if (!found) return SKILL_FILES[target].frontmatter ? { state: 'edited' } : { state: 'missing' };
  if (found.attrs !== versionAttr(version))
    return { state: 'outdated', installed: found.attrs.replace(/^v/, '') || 'unknown' };
  const expected = SKILL_FILES[target].frontmatter ? installedText(target, version, current) : skillBlock(version);
  return (SKILL_FILES[target].frontmatter ? current : found.block) === expected ? { state: 'ok' } : { state: 'edited' };
}

/** Whether a target is installed at all (what `check` looks at when no target is named): its own file exists, or a shared one has a marker. */
export function hasSkill(target: SkillTarget, current: string | null): boolean {
  if (current === null) return false;
  return (
    SKILL_FILES[target].frontmatter !== undefined ||
    current.includes(`<!-- kanban:${SECTION}`) ||
    current.includes(`<!-- /kanban:${SECTION} -->`)
  );
}
