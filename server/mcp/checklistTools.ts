import type { JsonSchema } from '../api/route';
import { ChecklistAddBody } from '../core/shapes/requests/cardNotes';
import { brief, ID, input, tool, type Output } from './everydayTools';
import { CARD_WITH_ITEMS } from './outputSchemas';
import { summaryOf } from './cardText';
import { BOARD_ARG } from './routeTools';
import { callApi, enc, onBoard, type ToolContext, type ToolDef } from './tool';

/**
 * Checklist tools for agents: tick an item, add one, remove one. Each answers the card's summary
 * and its items as `[x] text` lines with their index, which is what the next call takes.
 */

type Args = Record<string, unknown>;
const INDEX: JsonSchema = { type: 'integer', minimum: 0, description: 'index as the answers list it' };

function withItems(card: Args) {
  const items = (Array.isArray(card.checklistItems) ? card.checklistItems : []) as {
    index: number;
    text: string;
    done: boolean;
  }[];
  return {
    ...summaryOf(card, ['boardId']),
    items: items.map((item) => `${item.index}: [${item.done ? 'x' : ' '}] ${item.text}`),
  };
}

const WITH_ITEMS: Output = { schema: CARD_WITH_ITEMS };

const itemPath = (args: Args, suffix = '') => `${onBoard(args.board, '/tasks')}/${enc(args.id)}/checklist${suffix}`;

async function change({ client }: ToolContext, method: 'post' | 'patch' | 'delete', path: string, body?: Args) {
  return withItems((await callApi(client, { method, path, ...(body ? { body } : {}) })).data as Args);
}

export function checklistTools(): ToolDef[] {
  return [
    tool(
      'check_item',
      "Tick, untick or reword a card's checklist item",
      ['patch /tasks/{id}/checklist/{index}'],
      input(
        {
          id: ID,
          index: INDEX,
          done: { type: 'boolean', description: 'default true; kept if only text is given' },
          text: { type: 'string', description: 'new text' },
          board: BOARD_ARG,
        },
        ['id', 'index'],
      ),
      WITH_ITEMS,
      (ctx, args) => {
        // Rewording alone keeps the tick as it is; otherwise the call ticks unless told done:false.
        const done = args.done ?? (args.text === undefined ? true : undefined);
        const body = {
          ...(done === undefined ? {} : { done }),
          ...(args.text === undefined ? {} : { text: args.text }),
        };
        return change(ctx, 'patch', itemPath(args, `/${Number(args.index)}`), body);
      },
    ),
    tool(
      'add_checklist_item',
      'Add a checklist item to a card',
      ['post /tasks/{id}/checklist'],
      input({ id: ID, text: brief((ChecklistAddBody.properties as Args).text as JsonSchema), board: BOARD_ARG }, [
        'id',
        'text',
      ]),
      WITH_ITEMS,
      (ctx, args) => change(ctx, 'post', itemPath(args), { text: args.text }),
    ),
    tool(
      'remove_checklist_item',
      'Remove a checklist item; later ones renumber',
      ['delete /tasks/{id}/checklist/{index}'],
      input({ id: ID, index: INDEX, board: BOARD_ARG }, ['id', 'index']),
      WITH_ITEMS,
      (ctx, args) => change(ctx, 'delete', itemPath(args, `/${Number(args.index)}`)),
    ),
  ];
}
