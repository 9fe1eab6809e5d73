import {
  ProtocolError,
  ProtocolErrorCode,
  type GetPromptResult,
  type Prompt,
  type PromptArgument,
  type Server,
} from '@modelcontextprotocol/server';
import type { ApiClient } from '../client/apiClient';
import { complete } from './completions';
import {
  PromptArgumentError,
  splitCardText,
  triageNewCardsText,
  workOnNextCardText,
  writeHandoffText,
} from './promptTexts';
import { ToolError } from './tool';

/**
 * Prompts a person picks in a client's menu (a slash command in most): each one fills a task for
 * the agent with the board as it is now. The texts are in promptTexts.ts; completion of their
 * arguments in completions.ts.
 */

type Args = Record<string, string | undefined>;

interface PromptDef extends Prompt {
  arguments: PromptArgument[];
  text(client: ApiClient, args: Args): Promise<string>;
}

const BOARD: PromptArgument = { name: 'board', description: 'board id (default: the default board)' };
const CARD: PromptArgument = { name: 'id', description: 'card id, or a unique prefix of one', required: true };

export const PROMPTS: readonly PromptDef[] = [
  {
    name: 'work_on_next_card',
    title: 'Work on the next card',
    description: "Pick the next ready card, plan, report progress and complete it, following the board's agent loop",
    arguments: [BOARD, { name: 'column', description: "column to pick from (default: the board's ready columns)" }],
    text: workOnNextCardText,
  },
  {
    name: 'write_handoff',
    title: 'Write a hand-off for a card',
    description:
      'Leave a comment with the state of a card, the next steps and the open questions, for whoever takes it over',
    arguments: [CARD, BOARD],
    text: writeHandoffText,
  },
  {
    name: 'triage_new_cards',
    title: 'Triage new cards',
    description: 'Set priority, labels and assignee of the cards waiting in a column, and move or split them',
    arguments: [BOARD, { name: 'column', description: "column whose cards to triage (default: the board's first)" }],
    text: triageNewCardsText,
  },
  {
    name: 'split_card',
    title: 'Split a card into sub-tasks (checklist)',
    description: 'Break a card down into checklist items, one per sub-task',
    arguments: [CARD, BOARD],
    text: splitCardText,
  },
];

export const findPrompt = (name: string): PromptDef | undefined => PROMPTS.find((p) => p.name === name);

const listed = PROMPTS.map(({ text: _text, ...prompt }) => prompt);

export async function getPrompt(client: ApiClient, name: string, args: Args): Promise<GetPromptResult> {
  const prompt = findPrompt(name);
  if (!prompt)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `no prompt "${name}"; the prompts are ${PROMPTS.map((p) => p.name).join(', ')}`,
    );
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]);
  if (missing.length)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `prompt "${name}" needs the argument ${missing.map((a) => `"${a.name}"`).join(', ')}`,
    );
  try {
    const text = await prompt.text(client, args);
    return { description: prompt.title, messages: [{ role: 'user', content: { type: 'text', text } }] };
  } catch (error) {
    // A card or board that is not there is the caller's argument, said in the API's words ("no card matching ...").
    if (error instanceof PromptArgumentError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
    if (error instanceof ToolError)
      throw new ProtocolError(
        error.status !== undefined && error.status < 500
          ? ProtocolErrorCode.InvalidParams
          : ProtocolErrorCode.InternalError,
        error.message,
      );
    throw error;
  }
}

/**
 * Answer `prompts/list`, `prompts/get` and `completion/complete` (the server declares both
 * capabilities). Every prompt asks the agent to change the board (a comment, a move, checklist
 * items), so a read-only server (`--read-only`, a viewer at /mcp) offers none.
 */
export function servePrompts(server: Server, client: ApiClient, readOnly = false): void {
  server.setRequestHandler('prompts/list', async () => ({ prompts: readOnly ? [] : listed }));
  server.setRequestHandler('prompts/get', async (request) => {
    if (readOnly)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `prompt "${request.params.name}" asks for changes to the board and this server is read-only`,
      );
    return getPrompt(client, request.params.name, (request.params.arguments ?? {}) as Args);
  });
  server.setRequestHandler('completion/complete', async (request) => ({
    completion: await complete(client, request.params, (name) => findPrompt(name)?.arguments),
  }));
}
