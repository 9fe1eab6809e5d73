import {
  ProtocolError,
  ProtocolErrorCode,
  type CompleteRequestParams,
  type CompleteResult,
  type PromptArgument,
} from '@modelcontextprotocol/server';
import type { ApiClient } from '../client/apiClient';
import { boardOf, PromptArgumentError } from './promptTexts';
import { listBoards } from './resources';
import { callApi, onBoard, queryString, ToolError } from './tool';

/**
 * `completion/complete`: what a client offers while a person types a prompt argument or a
 * resource template variable. Three kinds of value, each from the board as it is now: card ids,
 * column ids and board ids. A value that completes to nothing is an empty list, never an error.
 */

/** MCP caps the values of one completion answer at 100. */
const MAX_VALUES = 100;

type Kind = 'card' | 'column' | 'board';

/** Which kind each prompt argument and template variable takes. */
const KIND_OF_ARGUMENT: Record<string, Kind> = { id: 'card', column: 'column', board: 'board' };

/** The resource templates, by their uri template as resources/templates/list gives it (the resources branch adds them). */
const KIND_OF_TEMPLATE: Record<string, Record<string, Kind>> = {
  'kanban://cards/{id}': { id: 'card' },
  'kanban://boards/{board}': { board: 'board' },
};

type Completion = CompleteResult['completion'];

function answer(values: string[]): Completion {
  return { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES };
}

/** Lower-case words of a text, split at anything but letters and digits. */
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Each typed word begins a word of the text: "log fix" finds "Fix the login page". */
function wordsMatch(typed: string, text: string): boolean {
  const typedWords = wordsOf(typed);
  const words = wordsOf(text);
  return typedWords.length > 0 && typedWords.every((t) => words.some((w) => w.startsWith(t)));
}

/** An id that begins with what was typed, or whose name's words do: "ops" or "Operations". */
const matches = (typed: string, id: string, name = '') =>
  id.toLowerCase().startsWith(typed.toLowerCase()) || wordsMatch(typed, name);

async function cardIds(client: ApiClient, typed: string, board: string | undefined): Promise<string[]> {
  const query = queryString({ fields: 'id,title', sort: '-modified' });
  const { data } = await callApi(client, { method: 'get', path: onBoard(board, `/tasks${query}`) });
  return (data as { id: string; title: string }[]).filter((c) => matches(typed, c.id, c.title)).map((c) => c.id);
}

async function columnIds(client: ApiClient, typed: string, board: string | undefined): Promise<string[]> {
  return (await boardOf(client, board)).columns.filter((c) => matches(typed, c.id, c.name)).map((c) => c.id);
}

async function boardIds(client: ApiClient, typed: string): Promise<string[]> {
  return (await listBoards(client)).filter((b) => matches(typed, b.id, b.name)).map((b) => b.id);
}

function kindOf(
  params: CompleteRequestParams,
  promptArguments: (name: string) => PromptArgument[] | undefined,
): Kind | undefined {
  const name = params.argument.name;
  if (params.ref.type === 'ref/resource') return KIND_OF_TEMPLATE[params.ref.uri]?.[name];
  const args = promptArguments(params.ref.name);
  if (!args) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no prompt "${params.ref.name}"`);
  return args.some((a) => a.name === name) ? KIND_OF_ARGUMENT[name] : undefined;
}

export async function complete(
  client: ApiClient,
  params: CompleteRequestParams,
  promptArguments: (name: string) => PromptArgument[] | undefined,
): Promise<Completion> {
  const kind = kindOf(params, promptArguments);
  const typed = params.argument.value;
  // The board the other arguments name, so a column or card completes from that board's.
  const board = params.context?.arguments?.board || undefined;
  try {
    if (kind === 'card') return answer(await cardIds(client, typed, board));
    if (kind === 'column') return answer(await columnIds(client, typed, board));
    if (kind === 'board') return answer(await boardIds(client, typed));
    return answer([]);
  } catch (error) {
    // A board typed wrong in the context leaves nothing to offer; the prompt itself will say why.
    if (error instanceof ToolError || error instanceof PromptArgumentError) return answer([]);
    throw error;
  }
}
