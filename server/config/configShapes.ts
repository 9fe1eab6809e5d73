import { Type } from '@sinclair/typebox';
import { DEFAULT_SETTINGS } from '../core/defaults';
import type { Settings } from '../core/model';
import { BACKGROUND_MODES, BACKGROUND_PRESETS, PRIORITIES } from '../core/shapes/vocabulary';
import { VIEW_LAYOUTS } from '../core/savedViews';
import { BoardConfigSchema } from '../core/shapes/boardConfig';
import { choice, mapOf, openObject, textList } from '../core/shapes/parts';

/**
 * The parts of `.kanban.json`, each once, as TypeBox schemas: configSchema.ts puts them together
 * into the JSON Schema of the file (editors, unknown-key warnings, doctor), and types.ts derives the
 * configuration's types from them. A part is written as the service holds it after parseConfig;
 * `asWritten` says which of its fields a file must have, parseConfig filling in the rest. A board
 * is a shape of the core (shapes/boardConfig.ts), since the core's BoardConfig is its type.
 */

/** Every setting with its type and default; settings this version does not know are ignored, as by the service. */
export function settings() {
  const enums: Record<string, readonly string[]> = {
    defaultPriority: PRIORITIES,
    boardBackgroundMode: BACKGROUND_MODES,
    boardBackgroundPreset: BACKGROUND_PRESETS,
  };
  const properties = Object.fromEntries(
    Object.entries(DEFAULT_SETTINGS).map(([key, value]) => [
      key,
      enums[key] ? { enum: [...enums[key]], default: value } : { type: typeof value, default: value },
    ]),
  );
  return Type.Unsafe<Settings>({ type: 'object', properties });
}

export const label = Type.Object({ color: Type.String(), group: Type.Optional(Type.String()) });

export const form = Type.Object({
  schema: openObject({}, { bare: true }),
  data: Type.Optional(openObject({}, { bare: true })),
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});

export const webhook = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: textList('event names, "prefix.*" or "*"'),
  secret: Type.Optional(Type.String({ description: 'write ${ENV_NAME}: a literal secret is moved out of this file' })),
  active: Type.Boolean(),
});

export const savedView = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' }),
  name: Type.String(),
  board: Type.String({ description: 'id of the board the view shows' }),
  layout: choice(VIEW_LAYOUTS, {}, { bare: true }),
  filter: mapOf(Type.Unsafe<string | boolean | number>({ type: ['string', 'boolean', 'number'] }), {
    description:
      'list-route query parameters: q, status, priority, assignee, label, labelGroup, due, ready, meta.<path>, ...',
  }),
  sort: Type.String({ description: 'a list-route sort value such as -priority; "" for the board order' }),
  groupBy: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    description: 'assignee, priority, labelGroup:<group> or metadata:<key path>',
  }),
});

export const plugin = Type.Object({ provider: Type.String(), options: openObject({}, { bare: true }) });

export const server = Type.Object({
  allowedOrigins: Type.Optional(textList('web origins whose pages may change the board, e.g. "https://example.com"')),
});

/**
 * `.kanban.json`, version 2 layout, as held in memory (`${ENV}` values unresolved). It describes
 * the types only: a file is checked by parseConfig, and editors by the file's schema.
 */
export const kanbanConfig = Type.Object({
  version: Type.Literal(2),
  defaultBoard: Type.String(),
  boards: Type.Array(BoardConfigSchema),
  settings: settings(),
  labels: mapOf(label),
  forms: mapOf(form),
  webhooks: Type.Array(webhook),
  views: Type.Array(savedView),
  plugins: mapOf(plugin),
  /** Absent when the file has no `server` key, so it is not written back with one. */
  server: Type.Optional(Type.Intersect([server, mapOf(Type.Unknown())])),
  /** Keys we do not know are kept as they were, so other tools' settings survive our writes. */
  extra: mapOf(Type.Unknown()),
});
