import { Type, type Static } from '@sinclair/typebox';
import { PRIORITIES, WIP_POLICIES } from '../vocabulary';
import { choice, closed, nullableInteger, text, textList, textMap } from '../parts';

/** Request bodies of the board and column routes. */

const wipLimit = () =>
  nullableInteger({ minimum: 1, description: 'soft WIP limit (cards, archived ones not counted); null for none' });

export const ColumnBody = closed({
  id: text('column id: a-z, 0-9, - and _'),
  name: text('display name'),
  color: Type.Optional(text('hex color, default #6b7280')),
  wipLimit: Type.Optional(wipLimit()),
});
export type ColumnBody = Static<typeof ColumnBody>;

export const BoardCreateBody = closed({
  id: text('board id: a-z, 0-9, - and _'),
  name: text(),
  description: Type.Optional(text()),
  columns: Type.Optional(Type.Array(ColumnBody)),
  defaultStatus: Type.Optional(text()),
  defaultPriority: Type.Optional(choice(PRIORITIES)),
  actions: Type.Optional(textMap()),
});
export type BoardCreateBody = Static<typeof BoardCreateBody>;

export const BoardUpdateBody = closed({
  name: Type.Optional(text()),
  description: Type.Optional(text()),
  columns: Type.Optional(Type.Array(ColumnBody)),
  defaultStatus: Type.Optional(text()),
  defaultPriority: Type.Optional(choice(PRIORITIES)),
  wipPolicy: Type.Optional(
    choice(WIP_POLICIES, 'a move or create into a full column: warn (allowed, Warning header) or block (409)'),
  ),
  autoArchiveDays: Type.Optional(
    nullableInteger({
      minimum: 1,
      description: 'archive cards that stayed this many days in the last column; null turns it off',
    }),
  ),
});
export type BoardUpdateBody = Static<typeof BoardUpdateBody>;

export const ActionsMapBody = closed({ actions: textMap() });
export type ActionsMapBody = Static<typeof ActionsMapBody>;

export const ActionTitleBody = closed({ title: text() });
export type ActionTitleBody = Static<typeof ActionTitleBody>;

export const ColumnUpdateBody = closed({
  name: Type.Optional(text()),
  color: Type.Optional(text()),
  wipLimit: Type.Optional(wipLimit()),
});
export type ColumnUpdateBody = Static<typeof ColumnUpdateBody>;

export const ColumnIdsBody = closed({ columnIds: textList() });
export type ColumnIdsBody = Static<typeof ColumnIdsBody>;
