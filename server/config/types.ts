import type { BoardConfig, LabelDefinition, Settings } from '../core/model';

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

/** `.kanban.json`, version 2 layout, as held in memory (`${ENV}` values unresolved). */
export interface KanbanConfig {
  version: 2;
  defaultBoard: string;
  boards: BoardConfig[];
  settings: Settings;
  labels: Record<string, LabelDefinition>;
  forms: Record<string, FormConfig>;
  webhooks: WebhookConfig[];
  plugins: Record<string, PluginEntry>;
  /** Keys we do not know are kept as they were, so other tools' settings survive our writes. */
  extra: Record<string, unknown>;
}
