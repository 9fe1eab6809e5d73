/**
 * The fixed word lists of the model: the shapes build their enums from them and the rules check
 * against them. They live below both, so a shape never imports the module whose types it defines.
 */

/** The hidden column that holds soft-deleted cards. */
export const DELETED_STATUS = 'deleted';

/**
 * The folder (and index bucket) that holds archived cards. Reserved as a column id like `deleted`:
 * an archived card keeps its real `status`, so it cannot live in its status folder without showing
 * up in that column.
 */
export const ARCHIVED_STATUS = 'archived';

/** Status folders the service keeps for itself: no column may take these ids. */
export const RESERVED_STATUS_IDS: readonly string[] = [DELETED_STATUS, ARCHIVED_STATUS];

export const PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** What a move or create into a column at its WIP limit does: go ahead with a warning, or be refused. */
export const WIP_POLICIES = ['warn', 'block'] as const;
export type WipPolicy = (typeof WIP_POLICIES)[number];

export const BACKGROUND_MODES = ['fancy', 'plain'] as const;
export const BACKGROUND_PRESETS = [
  'aurora',
  'sunset',
  'meadow',
  'nebula',
  'lagoon',
  'candy',
  'ember',
  'violet',
  'paper',
  'mist',
  'sand',
] as const;

/** What an agent's session on a card says it is doing (core/sessions.ts). */
export const SESSION_STATES = ['active', 'awaitingInput', 'error', 'complete'] as const;
export type SessionState = (typeof SESSION_STATES)[number];
