/**
 * The fixed word lists of the model: the shapes build their enums from them and the rules check
 * against them. They live below both, so a shape never imports the module whose types it defines.
 */

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
