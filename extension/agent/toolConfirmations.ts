import type { ApiClient } from '../../server/client/apiClient';
import { callApi, enc, onBoard } from '../../server/mcp/tool';
import { CHAT_AGENT } from './agentTarget';

type Args = Record<string, unknown>;

/** What the editor asks before a tool writes: a title, and the card and the change in a sentence. */
export interface Confirmation {
  title: string;
  message: string;
}

interface CardSeen {
  title?: string;
  checklistItems?: { index: number; text: string }[];
}

/** The card as the person knows it, `"Title" (id)`; the id alone when it cannot be read (the tool then says why). */
async function cardOf(client: ApiClient, args: Args): Promise<{ name: string; card: CardSeen }> {
  const id = String(args.id);
  try {
    const { data } = await callApi(client, { method: 'get', path: `${onBoard(args.board, '/tasks')}/${enc(id)}` });
    const card = data as CardSeen & { id: string };
    return { name: `"${card.title}" (${card.id})`, card };
  } catch {
    return { name: id, card: {} };
  }
}

const clip = (text: unknown, length = 120) => {
  const value = String(text ?? '');
  return value.length > length ? `${value.slice(0, length - 1)}…` : value;
};

const NOT_CHANGES = new Set(['id', 'board', 'title', 'body']);
function changesOf(args: Args): string {
  const fields = Object.entries(args)
    .filter(([key, value]) => !NOT_CHANGES.has(key) && value !== undefined)
    .map(([key, value]) => `${key} ${JSON.stringify(value)}`);
  if (args.title !== undefined) fields.unshift(`title "${clip(args.title, 80)}"`);
  if (args.body !== undefined) fields.push('its description');
  return fields.join(', ') || 'nothing';
}

function itemOf(card: CardSeen, index: unknown): string {
  const item = card.checklistItems?.find((entry) => entry.index === Number(index));
  return item ? `item ${item.index} "${clip(item.text, 80)}"` : `item ${Number(index)}`;
}

/** The confirmation of one write of the tools in languageModelTools.ts, by its MCP name. */
export async function confirmationOf(tool: string, args: Args, client: ApiClient): Promise<Confirmation> {
  switch (tool) {
    case 'create_card':
      return {
        title: 'Create a card',
        message: `Create card "${clip(args.title, 80)}"${args.status ? ` in ${args.status}` : ''} on board ${args.board}?`,
      };
    case 'pick_card':
      return {
        title: 'Pick the next card',
        message: `Claim the next ready card of board ${args.board}${args.status ? ` in ${args.status}` : ''} as ${CHAT_AGENT}${args.moveTo ? ` and move it to ${args.moveTo}` : ''}?`,
      };
    case 'claim_card':
      return { title: 'Claim a card', message: `Claim card ${(await cardOf(client, args)).name} as ${CHAT_AGENT}?` };
    case 'update_card':
      return {
        title: 'Change a card',
        message: `Change card ${(await cardOf(client, args)).name}: ${changesOf(args)}?`,
      };
    case 'move_card':
      return { title: 'Move a card', message: `Move card ${(await cardOf(client, args)).name} to ${args.status}?` };
    case 'add_comment':
      return {
        title: 'Comment on a card',
        message: `Comment on card ${(await cardOf(client, args)).name}: "${clip(args.content)}"?`,
      };
    case 'check_item': {
      const { name, card } = await cardOf(client, args);
      const done = args.done ?? (args.text === undefined ? true : undefined);
      const change = done === undefined ? 'Reword' : done ? 'Tick' : 'Untick';
      const text = args.text === undefined ? '' : ` as "${clip(args.text, 80)}"`;
      return {
        title: 'Change a checklist item',
        message: `${change} ${itemOf(card, args.index)}${text} of card ${name}?`,
      };
    }
    default:
      return { title: 'Change the board', message: `Run ${tool} on board ${args.board}?` };
  }
}
