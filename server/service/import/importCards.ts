import { ValidationError } from '../../core/errors';
import { parseCsvImport } from './csvImport';
import { parseGithub } from './githubImport';
import { runImport, type ImportResult } from './importPlan';
import { IMPORT_FORMATS, type ParsedSource } from './importTypes';
import { parseBacklogMd } from './backlogMdImport';
import { parseKanbanLite } from './kanbanLiteImport';
import { parseKanbanMd } from './kanbanMdImport';
import { parseObsidianKanban } from './obsidianKanbanImport';
import { parseVibeKanban } from './vibeKanbanImport';
import { parseTrello } from './trelloImport';
import type { Workspace } from '../workspace';
import type { RunControl } from '../../core/progress';
import type { ImportBody } from '../../core/shapes/requests/dataMoves';

/** The body of `POST /import`, and what `kanban import` sends. */
export type ImportRequest = ImportBody;

function parseSource(request: ImportRequest): ParsedSource {
  const source = request.source?.trim() || (request.format === 'csv' ? 'import.csv' : 'issues');
  switch (request.format) {
    case 'github':
      return parseGithub(request.data, source);
    case 'trello':
      return parseTrello(request.data);
    case 'csv':
      return parseCsvImport(request.data, source);
    case 'kanban-lite':
      return parseKanbanLite(request.data);
    case 'backlog-md':
      return parseBacklogMd(request.data);
    case 'kanban-md':
      return parseKanbanMd(request.data);
    case 'vibe-kanban':
      return parseVibeKanban(request.data);
    case 'obsidian-kanban':
      return parseObsidianKanban(request.data, request.source?.trim() || 'board.md');
    default:
      throw new ValidationError(`format must be one of ${IMPORT_FORMATS.join(', ')}`);
  }
}

/** A dry run unless `apply`: what would be created; with `apply`, creates it (one task.created event per card). */
export async function importCards(
  ws: Workspace,
  defaultBoard: string,
  request: ImportRequest,
  run: RunControl = {},
): Promise<ImportResult> {
  const boardId = request.board ?? defaultBoard;
  ws.board(boardId);
  return runImport(ws, request.format, boardId, parseSource(request), request.apply === true, run);
}
