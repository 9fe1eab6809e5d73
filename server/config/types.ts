import type { Static } from '@sinclair/typebox';
import type { SavedView } from '../core/savedViews';
import type { form, kanbanConfig, plugin, webhook } from './configShapes';

/**
 * The configuration's types, each derived from its schema in configShapes.ts (the schema the
 * editors' JSON Schema of `.kanban.json` is put together from). Boards, settings and labels take
 * their types from the core model, which the read models share.
 */

export type { SavedView };

export type PluginEntry = Static<typeof plugin>;

export type WebhookConfig = Static<typeof webhook>;

export type FormConfig = Static<typeof form>;

/** `server`: how the HTTP server treats browsers. Keys this version does not know are kept as written. */
export type ServerSettings = NonNullable<KanbanConfig['server']>;

/** `.kanban.json`, version 2 layout, as held in memory (`${ENV}` values unresolved). */
export type KanbanConfig = Static<typeof kanbanConfig>;
