import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient } from '../client/apiClient';
import { callApi, enc, queryString, ToolError } from './tool';

/** Small Markdown documents an agent can read before it starts: how to work, and each board at a glance. */

export const INSTRUCTIONS_URI = 'kanban://instructions';
const BOARD_URI = 'kanban://boards/';
const TOP_CARDS = 5;

interface BoardSummary {
  id: string;
  name: string;
  description?: string | null;
  isDefault: boolean;
  taskCount: number;
  columns: { id: string; name: string; wipLimit?: number }[];
}

async function boards(client: ApiClient): Promise<BoardSummary[]> {
  return (await callApi(client, { method: 'get', path: '/boards' })).data as BoardSummary[];
}

export async function listResources(client: ApiClient): Promise<Resource[]> {
  return [
    { uri: INSTRUCTIONS_URI, name: 'instructions', title: 'How to work on this board', mimeType: 'text/markdown' },
    ...(await boards(client)).map((b) => ({
      uri: `${BOARD_URI}${b.id}`,
      name: `board-${b.id}`,
      title: `Board ${b.name}: columns, counts and top cards`,
      mimeType: 'text/markdown',
    })),
  ];
}

async function instructions(client: ApiClient): Promise<string> {
  const all = await boards(client);
  const main = all.find((b) => b.isDefault) ?? all[0];
  const columns = main ? main.columns.map((c) => c.id) : [];
  // Where work in progress goes: a column that says so, else the middle one.
  const working = columns.find((id) => /progress|doing|active|wip/.test(id)) ?? columns[Math.floor(columns.length / 2)] ?? 'in-progress';
  return [
    '# Working on this kanban board',
    '',
    'Cards are Markdown files in the repository; a card id may be shortened to a unique prefix.',
    `Columns of the default board, in order: ${columns.join(' → ')}. Other boards: pass \`board\` (see list_boards).`,
    '',
    '1. Find work: `list_cards {status, assignee, q}` answers summaries, 50 a page; pass `nextCursor` back as `cursor`.',
    '2. Read it: `get_card {id}` (content, comments, and the git branches and commits that name it).',
    `3. Pick it up: \`update_card {id, assignee}\`, then \`move_card {id, status: "${working}"}\`.`,
    `   Beside other agents: \`pick_card {moveTo: "${working}"}\` claims the best ready card for you alone; \`report_progress {id, state, note}\` tells people where you are (active, awaitingInput, error) and keeps your claim; state \`complete\` (or \`release_card {id}\`) lets it go.`,
    '4. Tell people: `add_comment {id, content}`; keep a progress trail with `add_log {id, text}`.',
    `5. Finish: \`move_card {id, status: "${columns[columns.length - 1] ?? 'done'}"}\`.`,
    '',
    'Put finished cards away with `archive_card {id}` (or `archive_column {column}`); `list_cards {archived: "only"}` finds them and `restore_card {id}` brings one back.',
    'A column may have a WIP limit: a move past it goes ahead with a warning, or is refused (409) on a board whose wipPolicy is block.',
    '',
    'New work: `create_card {title, body?, priority?, labels?}`. Errors say what to fix; a 409 or 412 means someone changed the card: read it again.',
    '',
  ].join('\n');
}

async function boardSummary(client: ApiClient, boardId: string): Promise<string> {
  const board = (await boards(client)).find((b) => b.id === boardId);
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
    if (total > TOP_CARDS) lines.push(`- … ${total - TOP_CARDS} more: \`list_cards {board: "${board.id}", status: "${column.id}"}\``);
    lines.push('');
  }
  return lines.join('\n');
}

export async function readResource(client: ApiClient, uri: string): Promise<ReadResourceResult> {
  let text: string;
  if (uri === INSTRUCTIONS_URI) text = await instructions(client);
  else if (uri.startsWith(BOARD_URI)) text = await boardSummary(client, decodeURIComponent(uri.slice(BOARD_URI.length)));
  else throw new ToolError(`no resource ${uri}: read ${INSTRUCTIONS_URI} or ${BOARD_URI}<board id>`, 404);
  return { contents: [{ uri, mimeType: 'text/markdown', text }] };
}
