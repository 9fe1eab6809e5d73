import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { IMPORT_FORMATS, type ImportFormat, type SourceFiles } from '../service/import/importTypes';
import type { ImportResult } from '../service/import/importPlan';
import { withProgress } from './progress';
import { readKanbanLiteDir } from '../service/import/kanbanLiteFiles';
import { looksLikeObsidianKanban } from '../service/import/obsidianKanbanImport';
import { findToolFolder, readToolFiles } from '../service/import/sourceFolders';
import { vibeTasksOf } from '../service/import/vibeKanbanImport';
import { flag, helpFor, str, type Command } from './command';
import type { Context } from './context';
import { bold, dim, plain } from './output';
import { CliError, UsageError } from './usage';

/** `kanban import` and `kanban export`: files on this machine in and out through the import and export routes. */

/** The format a file holds, when --format does not say: told by its name, else by its shape. */
function guessFileFormat(file: string, text: string): ImportFormat {
  if (/\.csv$/i.test(file)) return 'csv';
  if (/\.md$/i.test(file) && looksLikeObsidianKanban(text)) return 'obsidian-kanban';
  try {
    const json = JSON.parse(text);
    if (vibeTasksOf(json)) return 'vibe-kanban';
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

const FOLDER_FORMATS: readonly ImportFormat[] = ['kanban-lite', 'backlog-md', 'kanban-md'];

/** A folder: a Backlog.md project, a kanban-md board, else a kanban-lite workspace. */
async function readFolder(
  dir: string,
  format: ImportFormat | undefined,
): Promise<{ format: ImportFormat; data: unknown }> {
  if (format !== undefined && !FOLDER_FORMATS.includes(format))
    throw new CliError(`${dir} is a folder; a folder holds ${FOLDER_FORMATS.join(', ')}, not ${format}`);
  const tool = format === 'kanban-lite' ? undefined : await findToolFolder(dir);
  if (tool && (format === undefined || format === tool.format))
    return { format: tool.format, data: await readToolFiles(tool.format, tool.root) };
  if (format !== undefined && format !== 'kanban-lite')
    throw new CliError(`${dir} holds no ${format} project (config.yml and tasks/, or a backlog/ or kanban/ folder)`);
  const data = await readKanbanLiteDir(dir).catch((e: Error) => {
    throw new CliError(
      `${e.message.replace(/; is it a kanban-lite workspace\?$/, '')}, and no Backlog.md or kanban-md project`,
    );
  });
  return { format: 'kanban-lite', data };
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
  if (stat.isDirectory())
    return {
      ...(await readFolder(file, format as ImportFormat | undefined)),
      source: path.basename(path.resolve(file)),
    };
  if (FOLDER_FORMATS.includes(format as ImportFormat))
    throw new CliError(`--format ${format} takes a folder, not a file`);
  const text = await fs.readFile(file, 'utf8');
  const chosen = (format as ImportFormat | undefined) ?? guessFileFormat(file, text);
  if (chosen === 'csv' || chosen === 'obsidian-kanban')
    return { format: chosen, data: text, source: path.basename(file) };
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
  for (const column of result.newColumns)
    lines.push(
      `  new column ${plain(column.name)}  ${dim(o, column.id)}${result.applied ? '' : ' (would be created)'}`,
    );
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
    'Import cards from GitHub, Trello, CSV, kanban-lite, Backlog.md, kanban-md, vibe-kanban or an Obsidian Kanban note (a dry run unless --apply)',
  args: '<file|dir>',
  positionals: [1, 1],
  details: [
    'GitHub: gh issue list --state all --json number,title,body,labels,assignees,state,milestone,createdAt > issues.json',
    'Folders: a Backlog.md project (or its backlog/), a kanban-md project (or its kanban/), a kanban-lite workspace.',
    'Files: .csv, an Obsidian Kanban note (.md), JSON of GitHub issues, a Trello board or vibe-kanban tasks.',
    'Columns of Backlog.md, kanban-md and Obsidian that the board lacks are created (the dry run lists them).',
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

/**
 * A Backlog.md project written into `<out>/backlog/`. An existing project there is refused, not
 * overwritten; each file is written whole (a temporary file renamed into place).
 */
async function writeBacklogProject(out: string, files: SourceFiles['files']): Promise<string> {
  const root = path.join(out, 'backlog');
  if (await fs.stat(path.join(root, 'config.yml')).catch(() => null))
    throw new CliError(`${root} already holds a Backlog.md project; export into another folder`);
  for (const file of files) {
    const parts = file.path.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..'))
      throw new CliError(`the export names an unsafe path: ${file.path}`);
    const target = path.join(root, ...parts);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(`${target}.tmp`, file.content);
    await fs.rename(`${target}.tmp`, target);
  }
  return root;
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'Print a board as CSV or JSON (or write it with --out), or write it as a Backlog.md project',
  args: 'csv|json|backlog',
  positionals: [1, 1],
  details: ["backlog: writes <out>/backlog/ (config.yml, tasks/*.md); the last column's cards get status Done."],
  options: {
    out: {
      type: 'string',
      value: '<file|dir>',
      description: 'write the file here instead of printing it (backlog: the folder to hold backlog/)',
    },
  },
  writes: false,
  async run(ctx, parsed) {
    const format = parsed.positionals[0];
    if (format !== 'csv' && format !== 'json' && format !== 'backlog')
      throw new UsageError(`export takes csv, json or backlog, not "${format}"`, helpFor(exportCommand));
    const out = str(parsed, 'out');
    if (format === 'backlog' && !out)
      throw new UsageError('export backlog needs --out <folder>', helpFor(exportCommand));
    const answer = await ctx.get<{ base64: string }>(ctx.boardPath('/export'), { format });
    const bytes = Buffer.from(answer.data.base64, 'base64');
    if (format === 'backlog') {
      const { files } = JSON.parse(bytes.toString('utf8')) as SourceFiles;
      const root = await writeBacklogProject(out!, files);
      ctx.output.err(`wrote ${files.length} file(s) to ${root}`);
    } else if (out) {
      await fs.writeFile(out, bytes);
      ctx.output.err(`wrote ${out}`);
    } else ctx.output.out(bytes.toString('utf8'));
  },
};
