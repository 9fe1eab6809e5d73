import * as vscode from 'vscode';
import type { JsonSchema } from '../../server/api/route';
import type * as McpServerModule from '../../server/mcp/mcpServer';
import type * as ToolCatalogModule from '../../server/mcp/toolCatalog';
import type { ToolDef } from '../../server/mcp/tool';
import type { ExtensionParts } from '../parts';
import { agentTarget, CHAT_AGENT, folderApiClient } from './agentTarget';
import { confirmationOf } from './toolConfirmations';

type Args = Record<string, unknown>;

/**
 * The everyday card tools offered to the editor's agent mode, by their name there and the MCP tool
 * each runs: the same code, arguments and answers as over MCP, so they work without an MCP server.
 * package.json `contributes.languageModelTools` declares each with manifestSchemaOf's schema.
 */
export const LANGUAGE_MODEL_TOOLS: Readonly<Record<string, string>> = {
  kanban_list_cards: 'list_cards',
  kanban_get_card: 'get_card',
  kanban_pick_card: 'pick_card',
  kanban_claim_card: 'claim_card',
  kanban_create_card: 'create_card',
  kanban_update_card: 'update_card',
  kanban_move_card: 'move_card',
  kanban_add_comment: 'add_comment',
  kanban_check_item: 'check_item',
};

/**
 * Arguments the editor's tools leave out: the folder is the one the chat works on, and the agent is
 * always the chat's own, so a model cannot act under another agent's claim.
 */
const hiddenArgs = () => new Set([toolCatalogModule().WORKSPACE_ARG, 'agent']);

/*
 * The MCP tools' code and the MCP SDK load at a tool's first use, not at activation (esbuild.mjs,
 * EXTENSION_VENDOR_PARTS): a require the bundle keeps lazy (see serverModule in apiServer.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const toolCatalogModule = () => require('../../server/mcp/toolCatalog') as typeof ToolCatalogModule;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const toolCatalog = () => (require('../../server/mcp/mcpServer') as typeof McpServerModule).toolCatalog();

function mcpTool(name: string): ToolDef {
  const tool = toolCatalog().find(LANGUAGE_MODEL_TOOLS[name]);
  if (!tool) throw new Error(`no MCP tool behind ${name}`);
  return tool;
}

/** The input schema package.json declares for a tool: the MCP tool's as listed, less the hidden arguments. */
export function manifestSchemaOf(name: string): JsonSchema {
  const tool = mcpTool(name);
  const listed = toolCatalog().listed(tool).inputSchema as JsonSchema;
  const hidden = hiddenArgs();
  const properties = Object.fromEntries(Object.entries(listed.properties as Args).filter(([key]) => !hidden.has(key)));
  return { ...listed, properties };
}

/** The chat's board unless the model names another, for tools that take one. */
function onChatBoard(tool: ToolDef, args: Args, boardId: string): Args {
  const takesBoard = 'board' in ((tool.inputSchema.properties as Args | undefined) ?? {});
  return takesBoard && args.board === undefined ? { ...args, board: boardId } : args;
}

/** The catalog is built at a tool's first use, not at activation: compiling its schemas takes a while. */
function languageModelTool(parts: ExtensionParts, name: string): vscode.LanguageModelTool<Args> {
  return {
    async prepareInvocation(options) {
      const tool = mcpTool(name);
      const invocationMessage = `Kanban: ${tool.title}`;
      if (tool.annotations.readOnlyHint === true) return { invocationMessage };
      const target = await agentTarget(parts);
      const args = onChatBoard(tool, options.input, target.boardId);
      return {
        invocationMessage,
        confirmationMessages: await confirmationOf(tool.name, args, folderApiClient(target)),
      };
    },
    async invoke(options) {
      const tool = mcpTool(name);
      const target = await agentTarget(parts);
      const args = onChatBoard(tool, options.input ?? {}, target.boardId);
      toolCatalog().checkArguments(tool, args);
      const result = await tool.run({ client: folderApiClient(target), callerName: CHAT_AGENT }, args);
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      // A thrown error is what the editor hands the model as the tool's failure.
      if (result.isError) throw new Error(text);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    },
  };
}

/** Registers every tool of LANGUAGE_MODEL_TOOLS; in an editor without `lm.registerTool`, logs why there are none. */
export function registerLanguageModelTools(parts: ExtensionParts): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') {
    parts.log('this editor has no language model tools API (VS Code 1.95+): the Kanban tools are not offered to chat');
    return [];
  }
  return Object.keys(LANGUAGE_MODEL_TOOLS).map((name) => vscode.lm.registerTool(name, languageModelTool(parts, name)));
}
