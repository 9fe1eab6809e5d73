import type { ApiClient } from '../../server/client/apiClient';
import { currentBoardId } from '../commands/pickService';
import type { ExtensionParts } from '../parts';
import type { ApiTarget } from '../service/callApi';

/**
 * The agent name the editor's chat acts as (X-Kanban-Agent): its picks and claims show on the board
 * as this agent's, and another agent's claim refuses its changes as it would any agent's.
 */
export const CHAT_AGENT = 'vscode-chat';

/** The folder the chat works on (the board in front, else the first with a board), and the board shown there. */
export interface AgentTarget extends ApiTarget {
  boardId: string;
}

export async function agentTarget(parts: ExtensionParts): Promise<AgentTarget> {
  const folder = parts.panels.activeFolder() ?? parts.folders.primary();
  if (!folder || !parts.folders.hasKanban(folder))
    throw new Error('no folder with a kanban board is open: run "Kanban: Create Board" first');
  const target = { folder, service: await parts.services.get(folder), access: parts.access };
  return { ...target, boardId: currentBoardId(parts, target) };
}

/**
 * The route table as the MCP tools reach it, here through the folder's access layer (its token,
 * Restricted Mode's refusal of writes), every call acting as `agent` unless it names another.
 */
export function folderApiClient(target: ApiTarget, agent = CHAT_AGENT): ApiClient {
  return {
    mode: 'local',
    target: target.folder.name,
    call: (call) =>
      target.access.dispatch(target.service, target.folder, {
        method: call.method,
        path: call.path,
        body: call.body,
        ifMatch: call.ifMatch,
        agent: call.agent ?? agent,
        run: call.run,
      }),
    close: async () => undefined,
  };
}
