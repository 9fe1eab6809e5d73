import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { IMPORT_FORMATS, type ImportFormat } from '../service/import/importTypes';
import type { ImportResult } from '../service/import/importPlan';
import { withProgress } from './progress';
import { readKanbanLiteDir } from '../service/import/kanbanLiteFiles';
import { flag, helpFor, str, type Command } from './command';
import type { Context } from './context';
import { bold, dim, plain } from './output';
import { CliError, UsageError } from './usage';

/** `kanban import` and `kanban export`: files on this machine in and out through the import and export routes. */

/** The format a file or folder holds, when --format does not say: a folder is kanban-lite; JSON is told by its shape. */
function guessFormat(file: string, isDir: boolean, text: string | null): ImportFormat {
  if (isDir) return 'kanban-lite';
  if (/\.csv$/i.test(file)) return 'csv';
  try {
    const json = JSON.parse(text ?? '');
    if (Array.isArray(json)) return 'github';
    if (json && typeof json === 'object' && Array.isArray(json.lists) && Array.isArray(json.cards)) return 'trello';
  } catch {
    // Not JSON: fall through to the message below.
  }
  throw new UsageError(
    `cannot tell the format of ${file}; add --format ${IMPORT_FORMATS.join('|')}`,
    helpFor(importCommand),
  );
}

async function readSource(
  file: string,
  format: string | undefined,
): Promise<{ format: ImportFormat; data: unknown; source: string }> {
  const stat = await fs.stat(file).catch(() => null);
  if (!stat) throw new CliError(`no file or folder ${file}`);
  if (format !== undefined && !(IMPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${IMPORT_FORMATS.join(', ')}`, helpFor(importCommand));
  }
  const text = stat.isDirectory() ? null : await fs.readFile(file, 'utf8');
  const chosen = (format as ImportFormat | undefined) ?? guessFormat(file, stat.isDirectory(), text);
  if (chosen === 'kanban-lite') {
    if (!stat.isDirectory())
      throw new CliError('--format kanban-lite takes the folder that holds .kanban.json and .kanban/');
    return {
      format: chosen,
      data: await readKanbanLiteDir(file).catch((e: Error) => {
        throw new CliError(e.message);
      }),
      source: path.basename(path.resolve(file)),
    };
  }
  if (text === null)
    throw new CliError(
      `${file} is a folder; only a kanban-lite workspace is imported from a folder (--format kanban-lite)`,
    );
  if (chosen === 'csv') return { format: chosen, data: text, source: path.basename(file) };
  try {
    return { format: chosen, data: JSON.parse(text), source: path.basename(file) };
  } catch (error) {
    throw new CliError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

function summary(ctx: Context, result: ImportResult): string {
  const o = ctx.output;
  const lines = [
    bold(
      o,
      result.applied
        ? `Created ${result.created} card(s) on board ${result.board}:`
        : `Dry run: would create ${result.created} card(s) on board ${result.board}:`,
    ),
  ];
  for (const card of result.cards)
    lines.push(`  + ${plain(card.title)}  ${dim(o, `${card.status}${card.id ? `, ${card.id}` : ''}`)}`);
  if (result.skipped.length) {
    lines.push(`${result.skipped.length} already imported, skipped:`);
    for (const skip of result.skipped) lines.push(`  = ${plain(skip.title)}  ${dim(o, skip.existingId)}`);
  }
  if (result.notes.length) {
    lines.push('Left out:');
    for (const note of result.notes) lines.push(`  ! ${plain(note.title)}: ${note.reason}`);
  }
  if (!result.applied && result.created > 0)
    lines.push(dim(o, 'Nothing was written. Run again with --apply to create them.'));
  return lines.join('\n');
}

export const importCommand: Command = {
  name: 'import',
  summary:
    'Import cards from a GitHub issues export, a Trello board export, a CSV or a kanban-lite folder (a dry run unless --apply)',
  args: '<file|dir>',
  positionals: [1, 1],
  details: [
    'GitHub: gh issue list --state all --json number,title,body,labels,assignees,state,milestone,createdAt > issues.json',
    'Re-running skips cards already imported to the board (metadata importedFrom).',
  ],
  options: {
    format: {
      type: 'string',
      value: `<${IMPORT_FORMATS.join('|')}>`,
      description: 'what the file holds (default: told from the file)',
    },
    apply: { type: 'boolean', description: 'create the cards (without it: only say what would be created)' },
    source: {
      type: 'string',
      value: '<name>',
      description: 'names the source in importedFrom: owner/repo for GitHub (default: the file name)',
    },
  },
  writes: (parsed) => flag(parsed, 'apply'),
  async run(ctx, parsed) {
    const { format, data, source } = await readSource(parsed.positionals[0], str(parsed, 'format'));
    const body = {
      format,
      data,
      source: str(parsed, 'source') ?? source,
      apply: flag(parsed, 'apply'),
      ...(ctx.options.board ? { board: ctx.options.board } : {}),
    };
    const call = () => ctx.call<ImportResult>('POST', '/import', { body });
    // Only an applied import does long work; a dry run answers at once.
    const answer = body.apply
      ? await withProgress(
          ctx,
          `importing ${format} into the board`,
          'stopped; the cards created so far stay (a re-run skips them)',
          call,
        )
      : await call();
    if (ctx.json) return ctx.printJson(answer);
    ctx.output.out(summary(ctx, answer.data));
  },
};

export const exportCommand: Command = {
  name: 'export',
  summary: 'Print a board as CSV or JSON (or write it with --out)',
  args: 'csv|json',
  positionals: [1, 1],
  options: { out: { type: 'string', value: '<file>', description: 'write the file here instead of printing it' } },
  writes: false,
  async run(ctx, parsed) {
    const format = parsed.positionals[0];
    if (format !== 'csv' && format !== 'json')
      throw new UsageError(`export takes csv or json, not "${format}"`, helpFor(exportCommand));
    const answer = await ctx.get<{ base64: string }>(ctx.boardPath('/export'), { format });
    const bytes = Buffer.from(answer.data.base64, 'base64');
    const out = str(parsed, 'out');
    if (out) {
      await fs.writeFile(out, bytes);
      ctx.output.err(`wrote ${out}`);
    } else ctx.output.out(bytes.toString('utf8'));
  },
};
