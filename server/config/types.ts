import type { BoardConfig, LabelDefinition, Settings } from '../core/model';
import type { SavedView } from '../core/savedViews';

export type { SavedView };

export interface PluginEntry {
  provider: string;
  options: Record<string, unknown>;
}

export interface WebhookConfig {
  id: string;
  url: string;
  events: string[];
  secret?: string;
  active: boolean;
}

export interface FormConfig {
  schema: Record<string, unknown>;
  data?: Record<string, unknown>;
  name?: string;
  description?: string;
}

/** `server`: how the HTTP server treats browsers. Keys this version does not know are kept as written. */
export interface ServerSettings {
  /** Web origins besides the server's own that may change the board. */
  allowedOrigins?: string[];
  [key: string]: unknown;
}

/** `.kanban.json`, version 2 layout, as held in memory (`${ENV}` values unresolved). */
export interface KanbanConfig {
  version: 2;
  defaultBoard: string;
  boards: BoardConfig[];
  settings: Settings;
  labels: Record<string, LabelDefinition>;
  forms: Record<string, FormConfig>;
  webhooks: WebhookConfig[];
  views: SavedView[];
  plugins: Record<string, PluginEntry>;
  /** Absent when the file has no `server` key, so it is not written back with one. */
  server?: ServerSettings;
  /** Keys we do not know are kept as they were, so other tools' settings survive our writes. */
  extra: Record<string, unknown>;
}
