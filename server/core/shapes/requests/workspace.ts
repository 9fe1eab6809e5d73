import { Type, type Static } from '@sinclair/typebox';
import { BACKGROUND_MODES, BACKGROUND_PRESETS, PRIORITIES } from '../vocabulary';
import { choice, closed, flag, text } from '../parts';

/** Request bodies of the workspace routes: display settings and labels. */

export const SettingsBody = closed({
  showPriorityBadges: Type.Optional(flag()),
  showAssignee: Type.Optional(flag()),
  showDueDate: Type.Optional(flag()),
  showLabels: Type.Optional(flag()),
  showFileName: Type.Optional(flag()),
  compactMode: Type.Optional(flag()),
  showDeletedColumn: Type.Optional(flag()),
  defaultPriority: Type.Optional(choice(PRIORITIES)),
  defaultStatus: Type.Optional(text()),
  boardBackgroundMode: Type.Optional(choice(BACKGROUND_MODES)),
  boardBackgroundPreset: Type.Optional(choice(BACKGROUND_PRESETS)),
});
export type SettingsBody = Static<typeof SettingsBody>;

export const LabelBody = closed({ color: text('hex color'), group: Type.Optional(text()) });
export type LabelBody = Static<typeof LabelBody>;

export const LabelRenameBody = closed({ newName: text() });
export type LabelRenameBody = Static<typeof LabelRenameBody>;
