import * as path from 'node:path';
import { version } from '../../package.json';
import {
  DEFAULT_SKILL_TARGET,
  SKILL_FILES,
  SKILL_TARGETS,
  hasSkill,
  installedText,
  skillState,
  type SkillState,
  type SkillTarget,
} from '../core/skillFiles';
import { list, type Command, type Parsed } from './command';
import { usage } from './commandHelpers';
import type { Context } from './context';
import { readTextOrNull, writeIfChanged } from './localFiles';
import { bold, table } from './output';
import { ExitWith } from './usage';

/**
 * `kanban skill install|check`: the agent loop (core/agentLoop.ts) in the files agent tools read,
 * each copy marked with this kanban's version. Local files only: it needs no board and no server.
 */

const ACTIONS = ['install', 'check'];
const TARGET_WORDS = [...SKILL_TARGETS, 'all'];

export const skillCommand: Command = {
  name: 'skill',
  summary: 'Write the agent work loop where Claude, AGENTS.md readers, Copilot or Cursor read it, or check the copies',
  args: 'install|check',
  details: [
    'install  write the loop (pick, report, comment/log, move, complete) for each --target; default: agents',
    'check    exit 0 when every installed copy (or each --target) matches this kanban, else 1 naming the fix',
    '',
    ...SKILL_TARGETS.map(
      (t) =>
        `  ${t.padEnd(8)} ${SKILL_FILES[t].file}${SKILL_FILES[t].frontmatter ? '' : ' (a marked section; the rest of the file stays)'}`,
    ),
    '',
    'Paths are relative to the workspace folder (--dir). Each copy carries the version in its',
    '<!-- kanban:skill v<version> --> marker; install again after upgrading kanban.',
  ],
  options: {
    target: {
      type: 'string',
      multiple: true,
      value: '<t,t>',
      description: `${TARGET_WORDS.join(', ')} (comma-separated)`,
      choices: TARGET_WORDS,
    },
  },
  subcommands: ACTIONS,
  positionals: [1, 1],
  writes: false,
  offline: true,
  async run(ctx, parsed) {
    const action = parsed.positionals[0];
    if (action === 'install') return install(ctx, targetsOf(parsed) ?? [DEFAULT_SKILL_TARGET]);
    if (action === 'check') return check(ctx, targetsOf(parsed));
    usage(skillCommand, `the action is install or check, not "${action}"`);
  },
};

/** The targets --target names, in the table's order; undefined when it names none. */
function targetsOf(parsed: Parsed): SkillTarget[] | undefined {
  const words = list(parsed, 'target')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (words.length === 0) return undefined;
  const unknown = words.find((w) => !TARGET_WORDS.includes(w));
  if (unknown !== undefined) usage(skillCommand, `--target is one of ${TARGET_WORDS.join(', ')}, not "${unknown}"`);
  return SKILL_TARGETS.filter((t) => words.includes(t) || words.includes('all'));
}

async function install(ctx: Context, targets: SkillTarget[]): Promise<void> {
  const results = [];
  for (const target of targets) {
    const file = path.join(ctx.dir, SKILL_FILES[target].file);
    const current = await readTextOrNull(file);
    const written = await writeIfChanged(file, installedText(target, version, current), current);
    results.push({ target, file: SKILL_FILES[target].file, written, version });
  }
  if (ctx.json) return ctx.output.out(JSON.stringify(results, null, 2));
  for (const r of results)
    ctx.output.out(
      r.written
        ? `wrote ${bold(ctx.output, r.file)} (${r.target}, kanban ${version})`
        : `${r.file} is up to date (${r.target}, kanban ${version})`,
    );
}

async function check(ctx: Context, asked: SkillTarget[] | undefined): Promise<void> {
  const current = new Map<SkillTarget, string | null>();
  for (const target of SKILL_TARGETS)
    current.set(target, await readTextOrNull(path.join(ctx.dir, SKILL_FILES[target].file)));
  const targets = asked ?? SKILL_TARGETS.filter((t) => hasSkill(t, current.get(t)!));
  if (targets.length === 0) {
    throw new ExitWith(
      1,
      `no kanban skill is installed in ${ctx.dir}; install one: kanban skill install [--target ${TARGET_WORDS.join('|')}] (default: ${DEFAULT_SKILL_TARGET})`,
    );
  }
  const results = targets.map((target) => ({
    target,
    file: SKILL_FILES[target].file,
    ...skillState(target, version, current.get(target)!),
  }));
  if (ctx.json) ctx.output.out(JSON.stringify(results, null, 2));
  else
    ctx.output.out(
      table(ctx.output, results, [
        { header: 'STATE', cell: (r) => r.state },
        { header: 'TARGET', cell: (r) => r.target },
        { header: 'FILE', cell: (r) => r.file },
        { header: 'NOTE', cell: (r) => noteOf(r), shrink: true },
      ]),
    );
  const bad = results.filter((r) => r.state !== 'ok');
  if (bad.length) {
    throw new ExitWith(
      1,
      `${bad.length} of ${results.length} skill copies do not match kanban ${version}; fix: kanban skill install --target ${bad.map((r) => r.target).join(',')}`,
    );
  }
}

function noteOf(result: SkillState): string {
  if (result.state === 'ok') return `kanban ${version}`;
  if (result.state === 'outdated') return `written by kanban ${result.installed}`;
  if (result.state === 'edited') return result.problem ?? 'changed since it was installed';
  return 'not installed';
}
