import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Column, Comment, LabelDefinition, Settings } from './model';
import type { SavedView } from './savedViews';
import { openObject, text, textList, textMap } from './shapes/parts';
import type { CardSession } from './sessions';

/**
 * Every event the service emits, with the shape of its `data` and whether it carries the card's
 * read model. The WebSocket, the webhooks, the MCP notifications and the webview all read this
 * one table: the event names, the payload types and the documented schemas follow from it.
 * The order is the order of the documentation.
 */

/** A read model the API documents under `name`; its TypeScript type comes from the core model. */
function readModel<T>(name: string, description: string) {
  return Type.Unsafe<T>({ $ref: `#/components/schemas/${name}`, description });
}

const yes = (description: string) => Type.Optional(Type.Literal(true, { description }));

const taskId = text('id of the card');

/**
 * A change made outside this process (a hand edit, a git checkout, another instance) is announced
 * with the same event as an API change, marked `external`; `peer` when another instance over a
 * shared database made it (that instance delivered it to the webhooks and the event log already).
 */
const origin = {
  external: yes('the change was made outside the service (a file edited by hand, another instance)'),
  peer: yes('another instance over the shared database made the change and announced it'),
};

const session = Type.Union([readModel<CardSession>('AgentSession', 'the agent session'), Type.Null()], {
  description: "the card's agent session now, or null",
});
const logEntry = Type.Object(
  {
    text: text('what happened'),
    source: text('who or what logged it'),
    object: Type.Optional(openObject('structured details')),
    timestamp: text('when (ISO 8601)'),
  },
  { description: 'the log entry as stored' },
);
const board = readModel<Record<string, unknown>>('Board', 'the board as GET /api/boards/{id} answers it');
const savedView = Type.Unsafe<SavedView>({
  type: 'object',
  additionalProperties: true,
  description: 'the saved view as GET /api/views answers it',
});
const labelDefinition = Type.Unsafe<LabelDefinition>({
  $ref: '#/components/schemas/Labels/additionalProperties',
  description: "the label's color and group",
});

interface EventSpec<D extends TSchema, C extends boolean> {
  /** Whether the event carries the card's full read model as `card`. */
  card: C;
  description: string;
  data: D;
}

/** An event about one card: `card` is its read model after the change. */
const onCard = <D extends TSchema>(description: string, data: D): EventSpec<D, true> => ({
  card: true,
  description,
  data,
});
const offCard = <D extends TSchema>(description: string, data: D): EventSpec<D, false> => ({
  card: false,
  description,
  data,
});

export const EVENT_TABLE = {
  'task.created': onCard('a card was created', Type.Object({ taskId, ...origin })),
  'task.updated': onCard(
    'a card changed in place (same column)',
    Type.Object({
      taskId,
      fields: Type.Optional(textList('the fields the request set')),
      changes: Type.Optional(textList('what a repair changed (`file`: doctor rewrote the card file)')),
      rolledBack: yes('a failed bulk change put the card back as it was'),
      ...origin,
    }),
  ),
  'task.moved': onCard(
    'a card went to another column, place or board',
    Type.Object({
      taskId,
      from: text('the column it left'),
      to: text('the column it is in now'),
      position: Type.Optional(Type.Integer({ minimum: 0, description: 'its place in the new column (a move)' })),
      fields: Type.Optional(textList('other fields the move set')),
      fromBoard: Type.Optional(text('the board it left (a transfer)')),
      toBoard: Type.Optional(text('the board it is on now (a transfer)')),
      rolledBack: yes('a failed bulk change put the card back where it was'),
      ...origin,
    }),
  ),
  'task.deleted': onCard(
    'a card was deleted: to the deleted column (soft), or for good',
    Type.Object({
      taskId,
      permanent: Type.Boolean({ description: 'true: the card is gone for good; `card` is its last read model' }),
      previousStatus: Type.Optional(text('the column a soft-deleted card was in')),
      ...origin,
    }),
  ),
  'task.archived': onCard(
    'a card was archived',
    Type.Object({
      taskId,
      status: text('the column it keeps while archived'),
      column: Type.Optional(text('the column archived as a whole ("archive all")')),
      auto: yes("archived by the board's autoArchiveDays"),
      autoArchiveDays: Type.Optional(Type.Integer({ minimum: 1, description: "the board's autoArchiveDays" })),
      ...origin,
    }),
  ),
  'task.restored': onCard(
    'an archived or deleted card came back',
    Type.Object({
      taskId,
      from: text('`archived` or `deleted`'),
      to: text('the column it is in now'),
      ...origin,
    }),
  ),
  'task.claimed': onCard(
    'an agent claimed a card (or renewed its claim)',
    Type.Object({
      taskId,
      agent: text('the agent holding the claim'),
      since: text('when the agent first claimed the card'),
      until: text('when the lease ends unless renewed'),
      renewed: Type.Optional(Type.Boolean({ description: 'whether the agent already held the claim' })),
      ...origin,
    }),
  ),
  'task.released': onCard(
    'a claim on a card ended',
    Type.Object({
      taskId,
      agent: text('the agent whose claim ended'),
      by: Type.Optional(text('who released it: the agent, another agent, or a person')),
      forced: Type.Optional(Type.Boolean({ description: 'another agent took the claim away with force' })),
      expired: yes('the lease ran out'),
      ...origin,
    }),
  ),
  'task.session': onCard(
    'an agent reported on a card, or its session turned stale',
    Type.Object({ taskId, session, ...origin }),
  ),
  'comment.created': onCard(
    'a comment was added',
    Type.Object({ taskId, comment: readModel<Comment>('Comment', 'the new comment') }),
  ),
  'comment.updated': onCard(
    'a comment was edited',
    Type.Object({ taskId, comment: readModel<Comment>('Comment', 'the comment now') }),
  ),
  'comment.deleted': onCard('a comment was deleted', Type.Object({ taskId, commentId: text('the deleted comment') })),
  'attachment.added': onCard('files were attached', Type.Object({ taskId, files: textList('file names, as stored') })),
  'attachment.removed': onCard('an attachment was removed', Type.Object({ taskId, file: text('its file name') })),
  'log.added': onCard("an entry was added to a card's log", Type.Object({ taskId, entry: logEntry })),
  'log.cleared': onCard("a card's log was cleared", Type.Object({ taskId })),
  'board.log.added': offCard("an entry was added to the board's log", Type.Object({ entry: logEntry })),
  'board.log.cleared': offCard("the board's log was cleared", Type.Object({})),
  'column.created': offCard(
    'a column was added',
    Type.Object({ column: readModel<Column>('Column', 'the new column') }),
  ),
  'column.updated': offCard(
    "a column changed, or the board's minimized columns did",
    Type.Union([
      Type.Object({ column: readModel<Column>('Column', 'the column now') }),
      Type.Object({ minimizedColumnIds: textList('the columns shown collapsed now') }),
    ]),
  ),
  'column.deleted': offCard('a column was removed', Type.Object({ columnId: text('the removed column') })),
  'column.reordered': offCard(
    'the columns were reordered',
    Type.Object({ columnIds: textList('the columns in order') }),
  ),
  'column.limit.exceeded': offCard(
    'a card took a column over its WIP limit (once per crossing)',
    Type.Object({
      boardId: text('the board'),
      columnId: text('the column'),
      count: Type.Integer({ minimum: 0, description: 'cards in it now' }),
      limit: Type.Integer({ minimum: 1, description: 'its wipLimit' }),
    }),
  ),
  'board.created': offCard('a board was added', Type.Object({ board, ...origin })),
  'board.updated': offCard(
    'a board changed (its actions alone, or the whole board)',
    Type.Union([Type.Object({ board, ...origin }), Type.Object({ actions: textMap('action key to title') })]),
  ),
  'board.deleted': offCard('a board was removed', Type.Object({ boardId: text('the removed board'), ...origin })),
  'label.updated': offCard(
    'a label was defined or changed (one label), or the labels were edited by hand (all of them)',
    Type.Union([
      Type.Object({ name: text('the label'), definition: labelDefinition }),
      Type.Object({
        labels: Type.Unsafe<Record<string, LabelDefinition>>({
          $ref: '#/components/schemas/Labels',
          description: 'every label now',
        }),
        ...origin,
      }),
    ]),
  ),
  'label.renamed': offCard(
    'a label was renamed on every card that carries it',
    Type.Object({ name: text('the old name'), newName: text('the new name'), cards: textList('the cards rewritten') }),
  ),
  'label.deleted': offCard(
    'a label was deleted and taken off its cards',
    Type.Object({ name: text('the label'), cards: textList('the cards rewritten') }),
  ),
  'view.created': offCard('a saved view was created', Type.Object({ view: savedView })),
  'view.updated': offCard(
    'a saved view changed (one view), or the views were edited by hand (all of them)',
    Type.Union([
      Type.Object({ view: savedView, fromBoard: Type.Optional(text('the board it showed before')) }),
      Type.Object({ views: Type.Array(savedView, { description: 'every saved view now' }), ...origin }),
    ]),
  ),
  'view.deleted': offCard('a saved view was deleted', Type.Object({ view: savedView })),
  'settings.updated': offCard(
    'the settings changed, or other parts of .kanban.json did (forms, webhooks, plugins, default board)',
    Type.Object({
      settings: readModel<Settings>('Settings', 'every setting now'),
      changed: Type.Optional(textList('the settings the request set')),
      config: yes('.kanban.json changed beyond the settings: re-read what you show of it'),
      ...origin,
    }),
  ),
  'form.submit': onCard(
    'a form on a card was submitted',
    Type.Object({
      taskId,
      formId: text('the form'),
      data: openObject('the form data now'),
    }),
  ),
  'board.action.triggered': offCard(
    'a board action was triggered (for a webhook or plugin to act on)',
    Type.Object({ action: text('the action key'), title: text('its title'), boardId: text('the board') }),
  ),
  'card.action.triggered': onCard(
    'a card action was triggered (for a webhook or plugin to act on)',
    Type.Object({
      action: text('the action key'),
      title: text('its title'),
      boardId: text('the board'),
      taskId,
    }),
  ),
  'storage.migrated': offCard(
    'the cards moved to another storage provider: read everything again',
    readModel<Record<string, unknown>>('MigrationResult', 'what the migration moved'),
  ),
};

type EventTable = typeof EVENT_TABLE;

export type EventName = keyof EventTable;

/** The `data` of an event. */
export type Payload<K extends EventName> = Static<EventTable[K]['data']>;

/** Whether events named `K` carry the card's read model. */
export type CarriesCard<K extends EventName> = EventTable[K]['card'];

/** What an emitter passes after `data`: the card (of type `C`) for card events, nothing otherwise. */
export type CardArgument<K extends EventName, C> = CarriesCard<K> extends true ? [card: C] : [];
