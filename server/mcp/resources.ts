import type { ReadResourceResult, Resource, ResourceTemplateType } from '@modelcontextprotocol/server';
import type { ApiClient } from '../client/apiClient';
import type { BoardSummary } from '../service/boards';
import { AGENT_LOOP } from '../core/agentLoop';
import { boardContext, boardContextText } from './boardContextText';
import { CARD_URI, readCardResource } from './cardResource';
import { callApi, enc, queryString, ToolError } from './tool';

/** Small Markdown documents an agent can read before it starts: how to work, and each board at a glance. */

export const INSTRUCTIONS_URI = 'kanban://instructions';
export const BOARD_URI = 'kanban://boards/';
export const CONTEXT_URI = 'kanban://context';
const TOP_CARDS = 5;

export type { BoardSummary };

/** Every board with its columns (`GET /boards`): what the resources, prompts and completions build on. */
export async function listBoards(client: ApiClient): Promise<BoardSummary[]> {
  return (await callApi(client, { method: 'get', path: '/boards' })).data as BoardSummary[];
}

export async function listResources(client: ApiClient): Promise<Resource[]> {
  return [
    { uri: INSTRUCTIONS_URI, name: 'instructions', title: 'How to work on this board', mimeType: 'text/markdown' },
    {
      uri: CONTEXT_URI,
      name: 'context',
      title: 'The default board now: in progress, awaiting input, blocked, next to pick',
      mimeType: 'text/markdown',
    },
    ...(await listBoards(client)).map((b) => ({
      uri: `${BOARD_URI}${b.id}`,
      name: `board-${b.id}`,
      title: `Board ${b.name}: columns, counts and top cards`,
      mimeType: 'text/markdown',
    })),
  ];
}

/** Any board or card by its id: a card id may be a unique prefix, as the tools take it. */
export const RESOURCE_TEMPLATES: ResourceTemplateType[] = [
  {
    uriTemplate: `${BOARD_URI}{board}`,
    name: 'board',
    title: 'A board: columns, counts, first cards and the next to pick',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: `${CARD_URI}{id}`,
    name: 'card',
    title: 'A card: its file (Markdown with YAML frontmatter), then its read model (JSON)',
  },
];

/**
 * The agent loop every installed skill file carries (core/agentLoop.ts), then what only an MCP
 * client needs: its own way to name itself, the default board's columns, and the other tools.
 */
async function instructions(client: ApiClient): Promise<string> {
  const all = await listBoards(client);
  const main = all.find((b) => b.isDefault) ?? all[0];
  const columns = main ? main.columns.map((c) => c.id) : [];
  return [
    '# Working on this kanban board',
    '',
    AGENT_LOOP,
    '## Over MCP',
    '',
    "- Each step's tool is in brackets. You are the server's `--agent`, or `agent` in a call.",
    `- Columns of the default board, in order: ${columns.join(' → ')}. Other boards: pass \`board\` (list_boards, in the boards toolset).`,
    '- Tools come in toolsets: cards (listed by default), boards, automation, admin; `kanban mcp --toolsets` offers more, and a tool not offered says which flag enables it.',
    '- Find cards: `list_cards {status, assignee, q}`, 50 a page (pass `nextCursor` as `cursor`); read one: `get_card {id}`.',
    '- Change fields: `update_card {id, assignee, priority, ...}`; new work: `create_card {title, body?, priority?, labels?}`.',
    '- Finished cards (admin toolset): `archive_card {id}` (or `archive_column {column}`); `restore_card {id}` brings one back.',
    '- A move past a WIP limit warns, or is refused (409) on a board whose wipPolicy is block.',
    `- The board at a glance: resource ${CONTEXT_URI} (the default board; ${CONTEXT_URI}/<board> for another).`,
    '',
  ].join('\n');
}

async function boardSummary(client: ApiClient, boardId: string): Promise<string> {
  const board = (await listBoards(client)).find((b) => b.id === boardId);
  if (!board) throw new ToolError(`board "${boardId}" does not exist`, 404);
  const lines = [`# ${board.name} (${board.id})${board.isDefault ? ', the default board' : ''}`, ''];
  if (board.description) lines.push(board.description, '');
  lines.push(`${board.taskCount} card(s).`, '');
  for (const column of board.columns) {
    const query = queryString({ status: column.id, limit: TOP_CARDS, fields: 'id,title,priority,assignee' });
    const { data, page } = await callApi(client, { method: 'get', path: `/boards/${enc(board.id)}/tasks${query}` });
    const cards = data as { id: string; title: string; priority?: string; assignee?: string | null }[];
    const total = page?.total ?? cards.length;
    const limit = column.wipLimit ? `/${column.wipLimit} (WIP limit${total > column.wipLimit ? ', over' : ''})` : '';
    lines.push(`## ${column.name} (\`${column.id}\`): ${total}${limit}`);
    for (const card of cards.slice(0, TOP_CARDS)) {
      const tags = [card.priority, card.assignee ? `@${card.assignee}` : undefined].filter(Boolean).join(', ');
      lines.push(`- \`${card.id}\` ${card.title}${tags ? ` (${tags})` : ''}`);
    }
    if (total > TOP_CARDS)
      lines.push(`- … ${total - TOP_CARDS} more: \`list_cards {board: "${board.id}", status: "${column.id}"}\``);
    lines.push('');
  }
  lines.push(...(await nextToPick(client, board.id)));
  return lines.join('\n');
}

/** What pick_card would hand out next, in its order (the board context's `next`). */
async function nextToPick(client: ApiClient, boardId: string): Promise<string[]> {
  const { next, counts } = (await boardContext(client, boardId)).data;
  if (!next.length) return ['## Next to pick: none', ''];
  const shown = next.length < counts.pickable ? `${next.length} of ${counts.pickable}` : String(next.length);
  return [
    `## Next to pick (${shown})`,
    ...next.map((card) => `- \`${card.id}\` ${card.title} (${card.status}, ${card.priority})`),
    '',
  ];
}

export async function readResource(client: ApiClient, uri: string): Promise<ReadResourceResult> {
  let text: string;
  if (uri === INSTRUCTIONS_URI) text = await instructions(client);
  else if (uri === CONTEXT_URI) text = await boardContextText(client);
  else if (uri.startsWith(`${CONTEXT_URI}/`))
    text = await boardContextText(client, decodeURIComponent(uri.slice(CONTEXT_URI.length + 1)));
  else if (uri.startsWith(CARD_URI)) return readCardResource(client, uri);
  else if (uri.startsWith(BOARD_URI))
    text = await boardSummary(client, decodeURIComponent(uri.slice(BOARD_URI.length)));
  else
    throw new ToolError(
      `no resource ${uri}: read ${INSTRUCTIONS_URI}, ${CONTEXT_URI}[/<board id>], ${BOARD_URI}<board id> or ${CARD_URI}<card id>`,
      404,
    );
  return { contents: [{ uri, mimeType: 'text/markdown', text }] };
}
