/**
 * The groups a host offers or leaves out as a whole. `cards` is what an agent needs for its work
 * loop and is the default: every tool listed costs the agent tokens in every session, so the rest
 * is opt-in (`kanban mcp --toolsets boards,automation`).
 */
export const TOOLSETS = ['cards', 'boards', 'automation', 'admin'] as const;
export type Toolset = (typeof TOOLSETS)[number];
export const DEFAULT_TOOLSETS: readonly Toolset[] = ['cards'];

/** The everyday tools, by name: a card's life, the agent's work loop, and the board at a glance. */
const CARDS = new Set([
  'list_cards',
  'get_card',
  'create_card',
  'update_card',
  'move_card',
  'delete_card',
  'pick_card',
  'claim_card',
  'release_card',
  'report_progress',
  'check_item',
  'add_checklist_item',
  'remove_checklist_item',
  'add_comment',
  'list_comments',
  'add_log',
  'get_board_context',
]);

/** The rest by their route's OpenAPI tag; a tag not named here (a new one) is `admin`. */
const BY_TAG: Record<string, Toolset> = {
  boards: 'boards',
  columns: 'boards',
  labels: 'boards',
  views: 'boards',
  settings: 'boards',
  webhooks: 'automation',
  'board-actions': 'automation',
  actions: 'automation',
  forms: 'automation',
};

/** The one place that says which toolset a tool is in; `tag` is its first route's tag, kebab-case. */
export function toolsetOf(tool: { name: string }, tag: string | undefined): Toolset {
  if (CARDS.has(tool.name)) return 'cards';
  return (tag !== undefined && BY_TAG[tag]) || 'admin';
}

export const isToolset = (name: string): name is Toolset => (TOOLSETS as readonly string[]).includes(name);

/** The names of a comma list (`--toolsets cards,boards`, `?tools=a,b`), trimmed, empty ones dropped. */
export const commaNames = (value: string): string[] =>
  value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
