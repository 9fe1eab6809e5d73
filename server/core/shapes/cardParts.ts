import { Type } from '@sinclair/typebox';
import { SESSION_STATES } from './vocabulary';
import { named } from './names';
import { count, flag, nullableText, choice, openObject, orNull, text, time } from './parts';

/** The parts of a card's read model that are shapes of their own (the card itself is in card.ts). */

export const CommentSchema = named(
  'Comment',
  Type.Object({
    id: text('comment id: c_ and 10 base36 characters'),
    author: text('who wrote it'),
    content: text('Markdown'),
    created: time('when it was written'),
    modified: Type.Optional(time('when it was last edited; absent when never edited')),
  }),
);

/** Two whole variants, so a generated client type knows the fields of each. */
export const CardFormSchema = Type.Union(
  [
    Type.Object(
      {
        id: Type.Optional(text('form id')),
        name: text('the workspace form it refers to'),
        data: Type.Optional(openObject('default data')),
      },
      { description: 'a reference to a form of .kanban.json' },
    ),
    Type.Object(
      {
        id: Type.Optional(text('form id')),
        name: Type.Optional(text('form name')),
        schema: openObject('JSON schema of the form data'),
        data: Type.Optional(openObject('default data')),
      },
      { description: 'an inline form' },
    ),
  ],
  {
    description:
      'a workspace form reference {name} or an inline form {id?, name?, schema, data?}, as stored on the card',
  },
);

export const CardStateSchema = named(
  'CardState',
  Type.Object(
    {
      unread: flag('someone else acted on the card after the caller last read it'),
      open: flag('the caller has opened the card'),
    },
    { description: "the caller's own state of the card" },
  ),
);

export const ChecklistProgressSchema = named(
  'ChecklistProgress',
  Type.Object(
    { done: count('ticked items'), total: count('all items') },
    { description: 'task list items (- [ ] / - [x]) of the content outside code blocks' },
  ),
);

export const SubCardCountSchema = named(
  'SubCardCount',
  Type.Object(
    {
      total: count('sub-cards (cards whose parent is this one), soft-deleted ones left out'),
      done: count('of them, those in the last column of their board or archived'),
    },
    { description: 'how many sub-cards the card has and how many of them are done' },
  ),
);

export const ChecklistItemSchema = named(
  'ChecklistItem',
  Type.Object({
    index: count('zero-based, in content order: what the checklist routes take'),
    text: text('the item text after the box'),
    done: flag('ticked ([x])'),
  }),
);

/** An agent's lease on a card, as the read model shows it (rules in core/claims.ts). */
export const ClaimSchema = named(
  'Claim',
  Type.Object(
    {
      agent: text('the agent holding the card (X-Kanban-Agent)'),
      since: time('when the agent claimed it (a renewal keeps this)'),
      until: time('when the lease ends unless renewed; the card is free from then on'),
    },
    { description: "an agent's lease on the card" },
  ),
);

/** What the agent working on a card last reported (rules in core/sessions.ts). */
export const AgentSessionSchema = named(
  'AgentSession',
  Type.Object(
    {
      agent: text('the agent that reported'),
      state: choice([...SESSION_STATES], SESSION_STATES.join(', ')),
      note: nullableText('what the agent said with its report, or null'),
      url: nullableText('a link the agent gave (a pull request, a log), or null'),
      updatedAt: time('when the agent last reported'),
      stale: flag('true once the agent has been silent longer than the lease its last report renewed'),
    },
    { description: 'what the agent working on the card last reported' },
  ),
);

/** What marking a card opened or read answers: the caller's state of it, and the cursors behind it. */
export const CardStateChangeSchema = named(
  'CardStateChange',
  Type.Object(
    {
      cardId: text('card id'),
      boardId: text('board id'),
      actor: text('whose state this is'),
      unread: flag('someone else acted on the card after the actor read it'),
      open: flag('the actor has opened the card'),
      openedAt: nullableText('when the actor last opened the card (ISO 8601), or null'),
      readThrough: orNull(
        Type.Object({ at: time('everything up to this moment counts as read') }),
        'the read cursor, or null',
      ),
    },
    { description: "the actor's state of the card after the change" },
  ),
);
