import { EXPORT_CSV_COLUMNS, exportCsv, exportJson } from '../../service/import/exportCards';
import { exportBacklog } from '../../service/import/backlogExport';
import { importCards } from '../../service/import/importCards';
import { RawResponse, defineRoutes, route, type RequestContext } from '../route';
import { ImportBody } from '../../core/shapes/requests/dataMoves';
import { exportFileSchema, importResultSchema, sourceFilesSchema } from '../responseSchemas';
import { contentDisposition } from '../sendFile';

const EXPORT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  backlog: 'application/json; charset=utf-8',
} as const;

function exportText(ctx: RequestContext, format: keyof typeof EXPORT_TYPES): string {
  if (format === 'csv') return exportCsv(ctx.ws, ctx.boardId);
  if (format === 'backlog') return `${JSON.stringify(exportBacklog(ctx.ws, ctx.boardId), null, 2)}\n`;
  return exportJson(ctx.ws, ctx.boardId);
}

function exportFile(ctx: RequestContext): RawResponse {
  const format = (ctx.query.format as keyof typeof EXPORT_TYPES | undefined) ?? 'json';
  const text = exportText(ctx, format);
  const name = format === 'backlog' ? `${ctx.boardId}-backlog.json` : `${ctx.boardId}.${format}`;
  const data = Buffer.from(text, 'utf8');
  return new RawResponse(
    (res) => {
      res.status(200);
      res.setHeader('Content-Type', EXPORT_TYPES[format]);
      res.setHeader('Content-Disposition', contentDisposition('attachment', name));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.end(data);
    },
    async () => ({ name, contentType: EXPORT_TYPES[format], data }),
  );
}

/** Bringing cards in from other tools, and taking a board out as CSV or JSON. */
export const importExportRoutes = defineRoutes([
  route({
    method: 'post',
    path: '/import',
    tag: 'Import',
    summary:
      'Import cards from a GitHub issues export, a Trello board export, a CSV, a kanban-lite workspace, a Backlog.md or kanban-md project, vibe-kanban tasks or an Obsidian Kanban note; a dry run unless apply is true. ' +
      'Every card gets metadata importedFrom (github:owner/repo#12, trello:<cardId>, csv:<file>:<row key>, kanban-lite:<id>, backlog-md:<TASK-ID>, kanban-md:<id>, vibe-kanban:<id>, obsidian-kanban:<note>:<title>) and cards already imported are skipped',
    body: ImportBody,
    bodyLimit: '20mb',
    errors: [404],
    role: 'admin',
    response: importResultSchema,
    handle: ({ ws, boardId, body, run }) => importCards(ws, boardId, body, run),
  }),
  {
    method: 'get',
    path: '/export',
    tag: 'Import',
    summary: `The board's live cards as a file: CSV (columns ${EXPORT_CSV_COLUMNS.join(', ')}; labels joined by ;), JSON (board, exported, cards with comments) or backlog (the files of a Backlog.md backlog/ folder as {files: [{path, content}]})`,
    twin: true,
    query: [
      {
        name: 'format',
        type: 'string',
        enum: ['csv', 'json', 'backlog'],
        description: 'csv, json or backlog (default json)',
      },
    ],
    returns: 'the file bytes',
    files: {
      'application/json': { oneOf: [exportFileSchema, sourceFilesSchema] },
      'text/csv': { type: 'string', description: 'a header row, then one row per card' },
    },
    handle: exportFile,
  },
]);
