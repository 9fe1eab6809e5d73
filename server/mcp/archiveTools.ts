import { BOARD_ARG } from './routeTools';
import { ID, input, shortCard, tool } from './everydayTools';
import { ARCHIVED_CARDS, CARD_SUMMARY } from './outputSchemas';
import { callApi, enc, onBoard, type ToolDef } from './tool';

/** Archive tools for agents: put finished cards away without deleting them, and bring them back. */
export function archiveTools(): ToolDef[] {
  return [
    tool(
      'archive_card',
      'Archive a card: it keeps its status but leaves list_cards (archived: "only" lists it)',
      ['post /tasks/{id}/archive'],
      input({ id: ID, board: BOARD_ARG }, ['id']),
      { schema: CARD_SUMMARY },
      async ({ client }, args) =>
        shortCard(
          (await callApi(client, { method: 'post', path: `${onBoard(args.board, '/tasks')}/${enc(args.id)}/archive` }))
            .data,
        ),
    ),
    tool(
      'restore_card',
      'Bring back an archived card (to its column) or a deleted one (to the default column)',
      ['post /tasks/{id}/restore'],
      input({ id: ID, status: { type: 'string', description: 'column to restore into' }, board: BOARD_ARG }, ['id']),
      { schema: CARD_SUMMARY },
      async ({ client }, args) => {
        const body = args.status === undefined ? {} : { status: args.status };
        return shortCard(
          (
            await callApi(client, {
              method: 'post',
              path: `${onBoard(args.board, '/tasks')}/${enc(args.id)}/restore`,
              body,
            })
          ).data,
        );
      },
    ),
    tool(
      'archive_column',
      'Archive every card of a column (e.g. done); each one can be restored',
      ['post /columns/{columnId}/archive'],
      input({ column: { type: 'string', description: 'column id' }, board: BOARD_ARG }, ['column']),
      { schema: ARCHIVED_CARDS },
      async ({ client }, args) => {
        const { data } = await callApi(client, {
          method: 'post',
          path: onBoard(args.board, `/columns/${enc(args.column)}/archive`),
        });
        return { archived: (data as unknown[]).map(shortCard) };
      },
    ),
  ];
}
