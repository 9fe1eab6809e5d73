import type { Command } from './command';
import { dim, plain } from './output';
import { CliError } from './usage';
import type { DoctorFixReport, DoctorProblem, DoctorReport } from '../service/doctor';

/**
 * `kanban doctor [--fix]`: what is wrong with the board's files, over GET /workspace/doctor; with
 * --fix, POST /workspace/doctor/fix repairs what it can without losing anything. Exit 0 when nothing
 * is left, 1 when problems remain, so a script or a git hook can stop on it.
 */
export const doctorCommand: Command = {
  name: 'doctor',
  summary: "Check the board's files (duplicate ids, misplaced or broken files, config, .gitignore); --fix repairs",
  details: [
    'exit code 0 when nothing is wrong, 1 when problems remain',
    '--fix never deletes or moves away a file that does not parse: it stays, and is still reported',
  ],
  options: {
    fix: { type: 'boolean', description: 'repair what can be repaired without losing anything, and say what was done' },
  },
  writes: (parsed) => parsed.values.fix === true,
  async run(ctx, parsed) {
    const fix = parsed.values.fix === true;
    const answer = fix
      ? await ctx.call<DoctorFixReport>('POST', '/workspace/doctor/fix')
      : await ctx.get<DoctorReport>('/workspace/doctor');
    const report = answer.data;
    if (ctx.json) ctx.printJson(answer);
    else ctx.output.out(describe(ctx.output, report, fix));
    if (!report.ok)
      throw new CliError(
        `${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} remain${report.problems.length === 1 ? 's' : ''}${fix ? '' : report.problems.some((p) => p.fixable) ? '; kanban doctor --fix repairs those marked (fixable)' : ''}`,
      );
  },
};

function describe(output: Parameters<typeof dim>[0], report: DoctorReport | DoctorFixReport, fix: boolean): string {
  const lines: string[] = [];
  for (const line of 'fixed' in report ? report.fixed : []) lines.push(`fixed: ${plain(line)}`);
  for (const problem of report.problems) lines.push(problemLine(output, problem));
  if (report.ok) lines.push(fix && lines.length ? 'no problems remain' : 'no problems found');
  return lines.join('\n');
}

function problemLine(output: Parameters<typeof dim>[0], problem: DoctorProblem): string {
  const where = problem.path ? `${plain(problem.path)}: ` : '';
  return `${problem.kind}: ${where}${plain(problem.message)}${problem.fixable ? dim(output, ' (fixable)') : ''}`;
}
