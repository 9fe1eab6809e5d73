import { Type } from '@sinclair/typebox';
import { BoardConfigSchema, ConfigColumnSchema, columnList, priority } from '../core/shapes/boardConfig';
import { asWritten, mapOf, openObject, textList, textMap } from '../core/shapes/parts';
import { form, label, plugin, savedView, server, settings, webhook } from './configShapes';

type Schema = Record<string, unknown>;

/** Columns as a file writes them: an id is all a column must have. */
const columnsAsWritten = (description?: string) => columnList(asWritten(ConfigColumnSchema, ['id']), description);

/** A board's fields besides its id, as a file writes them: it may leave out any of them. */
const { id, ...heldFields } = BoardConfigSchema.properties;
const boardFields = { ...heldFields, columns: columnsAsWritten() };

/**
 * `.kanban.json` as a JSON Schema, for editors (VS Code's `jsonValidation`: completion and errors
 * while editing by hand). It is put together from the parts in configShapes.ts, the ones the
 * configuration's types come from, built on the same constants `parseConfig` checks against (ids,
 * priorities, backgrounds, the settings and their defaults); the build writes it to
 * dist/kanban.schema.json, so the file and the service cannot drift apart; a unit test runs both
 * over the same documents. Unknown keys are allowed, as the service keeps them.
 */
export function kanbanConfigSchema(): Schema {
  const storage = mapOf(
    Type.Object({ provider: Type.String(), config: Type.Optional(openObject({}, { bare: true })) }),
    {
      description: 'version 1: use plugins',
    },
  );
  // A plain JSON document, as the build writes it: TypeBox marks its schemas with symbol keys.
  return plainJson({
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Repo Kanban configuration (.kanban.json)',
    ...Type.Object({
      version: Type.Optional(
        Type.Unsafe({
          enum: [1, 2],
          description: '2 is the current layout; 1 is read and upgraded on the next change',
        }),
      ),
      defaultBoard: Type.Optional(
        Type.String({ description: 'id of the board unscoped routes act on; must be one of boards' }),
      ),
      boards: Type.Optional(
        Type.Unsafe({
          anyOf: [
            Type.Array(asWritten(Type.Object({ id, ...boardFields }), ['id'])),
            mapOf(asWritten(Type.Object(boardFields), []), { description: 'older layout: boards keyed by id' }),
          ],
        }),
      ),
      settings: Type.Optional(settings()),
      labels: Type.Optional(mapOf(label, { description: 'label name -> color and optional group' })),
      forms: Type.Optional(mapOf(form, { description: 'form id -> JSON Schema and default data' })),
      webhooks: Type.Optional(Type.Array(asWritten(webhook, ['id', 'url']))),
      views: Type.Optional(
        Type.Array(asWritten(savedView, ['id', 'board']), {
          description: 'saved views: a named filter, sort and layout of one board (GET /api/views)',
        }),
      ),
      plugins: Type.Optional(
        mapOf(asWritten(plugin, ['provider']), {
          description: 'card.storage, attachment.storage, card.state, auth.identity',
        }),
      ),
      server: Type.Optional(server),
      // The version 1 layout: one board at the top level, storage entries with `config`.
      columns: Type.Optional(columnsAsWritten('version 1: the columns of the one board')),
      defaultStatus: Type.Optional(Type.String({ description: 'version 1' })),
      defaultPriority: Type.Optional(priority('version 1')),
      actions: Type.Optional(textMap('version 1')),
      minimizedColumnIds: Type.Optional(textList('version 1')),
      storage: Type.Optional(storage),
    }),
  });
}

function plainJson(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema)) as Schema;
}
