import { Type } from '@sinclair/typebox';
import { PRIORITIES, SESSION_STATES } from './vocabulary';
import { named } from './names';
import { count, nullableText, choice, text, textList } from './parts';

/** The board at a glance for an agent, as GET /context answers it (the rules are in core/boardContext.ts). */

/**
 * How many cards a section lists (the counts say how many there are); `next` lists fewer. Here, by
 * the shape whose description states them, so the shape needs nothing from the module of its types.
 */
export const CONTEXT_SECTION_LIMIT = 10;
export const CONTEXT_NEXT_LIMIT = 5;

export const ContextCardSchema = named(
  'ContextCard',
  Type.Object(
    {
      id: text('card id'),
      title: text('the first # heading of the card'),
      status: text('column id'),
      priority: choice(PRIORITIES, 'critical, high, medium or low'),
      assignee: nullableText('assignee, or null'),
      dueDate: nullableText('ISO 8601 date or time, or null'),
      claim: Type.Optional(
        Type.Object(
          {
            agent: text('the agent holding the card'),
            until: text('when the lease ends unless renewed; ISO 8601'),
          },
          { description: 'the agent holding the card; absent when none does' },
        ),
      ),
      session: Type.Optional(
        Type.Object(
          {
            agent: text('the agent that reported'),
            state: choice(SESSION_STATES, SESSION_STATES.join(', ')),
            note: nullableText('what the agent said, or null'),
            stale: Type.Boolean({ description: 'the agent has been silent longer than its lease' }),
          },
          { description: 'what an agent last reported on the card; absent when none did' },
        ),
      ),
      waitsFor: Type.Optional(textList('ids of the open cards blocking this one; only on blocked cards')),
    },
    { description: 'a card as the board context lists it' },
  ),
);

const cards = (description: string) => Type.Array(ContextCardSchema, { description });

export const BoardContextSchema = named(
  'BoardContext',
  Type.Object(
    {
      board: Type.Object({ id: text('board id'), name: text('display name') }, { description: 'the board' }),
      inProgress: cards('cards in the start column or a later one before the last, or claimed by an agent'),
      awaitingInput: cards('cards whose agent waits for a person (session state awaitingInput)'),
      blocked: cards('unfinished cards that wait for open cards (blockedBy)'),
      next: cards('the ready, unclaimed cards pick would hand out next, best first'),
      counts: Type.Object(
        {
          inProgress: count('cards in progress'),
          awaitingInput: count('cards awaiting input'),
          blocked: count('blocked cards'),
          pickable: count('cards pick could hand out'),
        },
        { description: 'how many cards each section has in all' },
      ),
    },
    {
      description:
        `the board for an agent: each card in the first section that fits (awaiting input, blocked, in progress), ` +
        `at most ${CONTEXT_SECTION_LIMIT} a section in board order, and the next ${CONTEXT_NEXT_LIMIT} cards in pick order`,
    },
  ),
);
