import type { ApiClient } from '../client/apiClient';
import { AGENT_LOOP } from '../core/agentLoop';
import type { ContextCard } from '../core/boardContext';
import { boardContext } from './boardContextText';
import { listBoards, type BoardSummary } from './resources';
import { callApi, enc, onBoard, queryString } from './tool';

/**
 * The text of each prompt (prompts.ts): the board as it is now, read through the ApiClient, and
 * what to do with it. Short on purpose: a client sends it to the model whole. Tool names are
 * written through `tool()` in backticks, and a test checks each one against the catalog.
 */

type Args = Record<string, string | undefined>;
type Card = Record<string, any>;

const tool = (name: string) => `\`${name}\``;
const code = (text: string) => `\`${text}\``;

/** How much of a card's text and of each comment a prompt quotes; the agent reads the rest with get_card. */
const BODY_CHARS = 1500;
const ENTRY_CHARS = 200;
const RECENT = 5;
const TRIAGE_CARDS = 30;

/** The board named, else the default one; an unknown id is refused with the API's own words. */
export async function boardOf(client: ApiClient, board: string | undefined): Promise<BoardSummary> {
  const boards = await listBoards(client);
  const found = board ? boards.find((b) => b.id === board) : (boards.find((b) => b.isDefault) ?? boards[0]);
  if (!found) throw new PromptArgumentError(`board "${board}" does not exist`);
  return found;
}

/** An argument the prompt cannot be filled with: a protocol error (invalid params), not a message. */
export class PromptArgumentError extends Error {}

function checkColumn(board: BoardSummary, column: string): void {
  if (!board.columns.some((c) => c.id === column)) {
    throw new PromptArgumentError(
      `column "${column}" is not on board "${board.id}" (columns: ${board.columns.map((c) => c.id).join(', ')})`,
    );
  }
}

const oneLine = (text: string, max = ENTRY_CHARS) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

const columnsLine = (board: BoardSummary) => `Columns: ${board.columns.map((c) => code(c.id)).join(' → ')}.`;

function cardLine(card: Card): string {
  const facts = [
    card.status,
    card.priority,
    card.assignee ? `@${card.assignee}` : '',
    card.labels?.length ? `labels: ${card.labels.join(', ')}` : '',
  ];
  return `- ${code(card.id)} ${oneLine(card.title)} (${facts.filter(Boolean).join(', ')})`;
}

/** The card's text without its `#` title line and checklist lines: both are shown on their own. */
function bodyOf(card: Card): string {
  const body = String(card.content ?? '')
    .replace(/^#[ \t]+.*$/m, '')
    .split('\n')
    .filter((line) => !/^\s*[-*+] \[[ xX]\] /.test(line))
    .join('\n')
    .trim();
  return body.length > BODY_CHARS ? `${body.slice(0, BODY_CHARS)}… (rest: ${tool('get_card')})` : body;
}

function checklistLines(card: Card): string[] {
  const items = (card.checklistItems ?? []) as { index: number; text: string; done: boolean }[];
  if (!items.length) return ['Checklist: none.'];
  const done = items.filter((i) => i.done).length;
  return [
    `Checklist (${done}/${items.length}; index: item):`,
    ...items.map((i) => `${i.index}: [${i.done ? 'x' : ' '}] ${oneLine(i.text)}`),
  ];
}

async function cardOf(client: ApiClient, id: string, board: string | undefined): Promise<Card> {
  return (await callApi(client, { method: 'get', path: `${onBoard(board, '/tasks')}/${enc(id)}` })).data as Card;
}

/** The arguments a tool call on this card takes: the board only when it is not the default one. */
const cardArgs = (card: Card, args: Args, rest = '') =>
  `{id: "${card.id}"${args.board ? `, board: "${card.boardId}"` : ''}${rest}}`;

function cardHeader(card: Card): string {
  return `Card ${code(card.id)} "${oneLine(card.title)}" (board ${code(card.boardId)}; ${[card.status, card.priority, card.assignee ? `@${card.assignee}` : '', card.labels?.length ? `labels: ${card.labels.join(', ')}` : ''].filter(Boolean).join(', ')}).`;
}

function nextPickLine(next: ContextCard | undefined): string {
  if (!next) return 'Nothing is ready to pick now: say so and stop.';
  return `Next pick would be ${code(next.id)} "${oneLine(next.title)}" (${next.status}, ${next.priority}${next.assignee ? `, @${next.assignee}` : ''}).`;
}

/**
 * The context lists pick's next few in the service's own order; when none of them is in the column,
 * its ready, unclaimed card of highest priority stands in (pick also weighs due dates and board order).
 */
async function nextInColumn(
  client: ApiClient,
  board: BoardSummary,
  column: string,
  next: ContextCard[],
): Promise<ContextCard | undefined> {
  const inContext = next.find((c) => c.status === column);
  if (inContext) return inContext;
  const query = queryString({
    status: column,
    ready: true,
    claimed: false,
    sort: 'priority',
    limit: 1,
    fields: 'id,title,status,priority,assignee',
  });
  const { data } = await callApi(client, { method: 'get', path: onBoard(board.id, `/tasks${query}`) });
  return (data as ContextCard[])[0];
}

export async function workOnNextCardText(client: ApiClient, args: Args): Promise<string> {
  const board = await boardOf(client, args.board);
  if (args.column) checkColumn(board, args.column);
  const { data: context } = await boardContext(client, board.id);
  const next = args.column ? await nextInColumn(client, board, args.column, context.next) : context.next[0];
  const pickArgs = JSON.stringify({ board: board.id, ...(args.column ? { status: args.column } : {}) });
  const { counts } = context;
  return [
    `Work on the next card of board "${board.name}" (${code(board.id)})${args.column ? `, from column ${code(args.column)}` : ''}.`,
    columnsLine(board),
    `Now: ${counts.inProgress} in progress, ${counts.awaitingInput} awaiting input, ${counts.blocked} blocked, ${counts.pickable} ready to pick.`,
    nextPickLine(next),
    '',
    `Follow the loop below for one card: pick it with ${tool('pick_card')} ${pickArgs} (it may hand you another card if that one was taken); plan before you change anything and post the plan with ${tool('add_comment')}; report each step with ${tool('report_progress')}; complete it (step 7).`,
    '',
    AGENT_LOOP,
  ].join('\n');
}

async function recentLog(client: ApiClient, card: Card): Promise<{ text: string; timestamp: string }[]> {
  const { data } = await callApi(client, {
    method: 'get',
    path: `${onBoard(card.boardId, '/tasks')}/${enc(card.id)}/logs`,
  });
  return data as { text: string; timestamp: string }[];
}

function recentLines(title: string, entries: string[]): string[] {
  if (!entries.length) return [`${title}: none.`];
  const shown = entries.slice(-RECENT);
  return [
    `${title} (${shown.length < entries.length ? `last ${shown.length} of ${entries.length}` : entries.length}, oldest first):`,
    ...shown,
  ];
}

function agentLines(card: Card): string[] {
  const claim = card.claim ? `held by ${card.claim.agent} until ${card.claim.until}` : 'none';
  const session = card.session
    ? `${card.session.agent} reported ${card.session.state}${card.session.note ? `: "${oneLine(card.session.note)}"` : ''}`
    : 'none';
  return [`Claim: ${claim}. Session: ${session}.`];
}

export async function writeHandoffText(client: ApiClient, args: Args): Promise<string> {
  const card = await cardOf(client, args.id as string, args.board);
  const comments = ((card.comments ?? []) as { author: string; content: string; created: string }[]).map(
    (c) => `- ${c.author}, ${c.created.slice(0, 16)}: ${oneLine(c.content)}`,
  );
  const log = (await recentLog(client, card)).map((e) => `- ${e.timestamp.slice(0, 16)}: ${oneLine(e.text)}`);
  const body = bodyOf(card);
  return [
    `Write a hand-off for this card, so another agent or a person can take it over.`,
    cardHeader(card),
    ...agentLines(card),
    ...checklistLines(card),
    body ? `Body:\n${body}` : 'Body: empty.',
    ...recentLines('Comments', comments),
    ...recentLines('Log', log),
    '',
    `Add one comment with ${tool('add_comment')} ${cardArgs(card, args)} in three parts: **State** (what is done, what works, what does not, where the work is: branch, files, PR), **Next steps** (ordered, concrete), **Open questions** (for a person, or "none"). Tick finished checklist items with ${tool('check_item')}. If you hold the claim and stop here, ${tool('release_card')}.`,
  ].join('\n');
}

export async function triageNewCardsText(client: ApiClient, args: Args): Promise<string> {
  const board = await boardOf(client, args.board);
  const column = args.column ?? board.columns[0]?.id;
  if (column === undefined) throw new PromptArgumentError(`board "${board.id}" has no columns`);
  checkColumn(board, column);
  const query = queryString({
    status: column,
    limit: TRIAGE_CARDS,
    fields: 'id,title,status,priority,assignee,labels',
  });
  const { data, page } = await callApi(client, { method: 'get', path: onBoard(board.id, `/tasks${query}`) });
  const cards = data as Card[];
  const total = page?.total ?? cards.length;
  if (!cards.length)
    return `Column ${code(column)} of board "${board.name}" (${code(board.id)}) has no cards to triage: say so and stop.`;
  return [
    `Triage the cards waiting in column ${code(column)} of board "${board.name}" (${code(board.id)}): ${total}${total > cards.length ? `, the first ${cards.length} shown` : ''}.`,
    columnsLine(board),
    ...cards.map(cardLine),
    '',
    `For each card: set priority (critical, high, medium, low), labels and assignee with ${tool('update_card')}; move it where it belongs with ${tool('move_card')}; a card too big for one piece of work is split: ${tool('create_card')} for each part and ${tool('delete_card')} the original, or sub-tasks as ${tool('add_checklist_item')}. A card you cannot judge stays, with a question in ${tool('add_comment')}. End with a short summary of what you changed.`,
  ].join('\n');
}

export async function splitCardText(client: ApiClient, args: Args): Promise<string> {
  const card = await cardOf(client, args.id as string, args.board);
  const body = bodyOf(card);
  return [
    `Split this card into sub-tasks, as checklist items.`,
    cardHeader(card),
    ...checklistLines(card),
    body ? `Body:\n${body}` : 'Body: empty.',
    '',
    `Add each sub-task with ${tool('add_checklist_item')} ${cardArgs(card, args, ', text')}: small steps, each done and checked on its own, in the order to do them, one imperative line each. Keep the items there are: reword one with ${tool('check_item')} {id, index, text}, drop a duplicate with ${tool('remove_checklist_item')}. End with the list as it stands.`,
  ].join('\n');
}
