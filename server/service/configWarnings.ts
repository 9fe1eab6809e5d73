import { log } from '../core/log';
import type { WorkspaceState } from './workspaceState';

/**
 * Keep the unknown-key warnings of the `.kanban.json` in effect (GET /api/workspace shows them)
 * and log those not logged before: a start, of the server or of a command, says each once, and an
 * outside edit of the file says only what it added.
 */
export function noteConfigWarnings(ws: WorkspaceState, warnings: string[]): void {
  const before = new Set(ws.configWarnings);
  ws.configWarnings = warnings;
  for (const warning of warnings) if (!before.has(warning)) log.warn(`kanban: ${warning}`);
}
