import { PRIORITIES } from './model';
import type { SchemaType } from './schemaType';
import { SESSION_STATES } from './sessions';

/**
 * The board at a glance for an agent about to work (`kanban context`, GET /context, MCP): who works
 * on what, what waits for a person, what is blocked, what pick would hand out next. The schemas are
 * the one description of the shape (the API registers them; the types follow from them).
 */

/** How many cards a section lists (the counts say how many there are); `next` lists fewer. */
export const CONTEXT_SECTION_LIMIT = 10;
export const CONTEXT_NEXT_LIMIT = 5;

const text = (description: string) => ({ type: 'string', description }) as const;

export const contextCardSchema = {
  type: 'object',
  description: 'a card as the board context lists it',
  properties: {
    id: text('card id'),
    title: text('the first # heading of the card'),
    status: text('column id'),
    priority: { type: 'string', enum: PRIORITIES, description: 'critical, high, medium or low' },
    assignee: { type: ['string', 'null'], description: 'assignee, or null' },
    dueDate: { type: ['string', 'null'], description: 'ISO 8601 date or time, or null' },
    claim: {
      type: 'object',
      description: 'the agent holding the card; absent when none does',
      properties: {
        agent: text('the agent holding the card'),
        until: text('when the lease ends unless renewed; ISO 8601'),
      },
      required: ['agent', 'until'],
    },
    session: {
      type: 'object',
      description: 'what an agent last reported on the card; absent when none did',
      properties: {
        agent: text('the agent that reported'),
        state: { type: 'string', enum: SESSION_STATES, description: SESSION_STATES.join(', ') },
        note: { type: ['string', 'null'], description: 'what the agent said, or null' },
        stale: { type: 'boolean', description: 'the agent has been silent longer than its lease' },
      },
      required: ['agent', 'state', 'note', 'stale'],
    },
    waitsFor: {
      type: 'array',
      items: { type: 'string' },
      description: 'ids of the open cards blocking this one; only on blocked cards',
    },
  },
  required: ['id', 'title', 'status', 'priority', 'assignee', 'dueDate'],
} as const;

const cards = (description: string) => ({ type: 'array', items: contextCardSchema, description }) as const;
const count = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;

export const boardContextSchema = {
  type: 'object',
  description:
    `the board for an agent: each card in the first section that fits (awaiting input, blocked, in progress), ` +
    `at most ${CONTEXT_SECTION_LIMIT} a section in board order, and the next ${CONTEXT_NEXT_LIMIT} cards in pick order`,
  properties: {
    board: {
      type: 'object',
      description: 'the board',
      properties: { id: text('board id'), name: text('display name') },
      required: ['id', 'name'],
    },
    inProgress: cards('cards in the start column or a later one before the last, or claimed by an agent'),
    awaitingInput: cards('cards whose agent waits for a person (session state awaitingInput)'),
    blocked: cards('unfinished cards that wait for open cards (blockedBy)'),
    next: cards('the ready, unclaimed cards pick would hand out next, best first'),
    counts: {
      type: 'object',
      description: 'how many cards each section has in all',
      properties: {
        inProgress: count('cards in progress'),
        awaitingInput: count('cards awaiting input'),
        blocked: count('blocked cards'),
        pickable: count('cards pick could hand out'),
      },
      required: ['inProgress', 'awaitingInput', 'blocked', 'pickable'],
    },
  },
  required: ['board', 'inProgress', 'awaitingInput', 'blocked', 'next', 'counts'],
} as const;

export type ContextCard = SchemaType<typeof contextCardSchema>;
export type BoardContext = SchemaType<typeof boardContextSchema>;
