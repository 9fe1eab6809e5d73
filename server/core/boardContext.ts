import type { Static } from '@sinclair/typebox';
import type { BoardContextSchema, ContextCardSchema } from './shapes/boardContext';

/**
 * The board at a glance for an agent about to work (`kanban context`, GET /context, MCP): who works
 * on what, what waits for a person, what is blocked, what pick would hand out next. The shape is
 * described once, in shapes/boardContext.ts; the types follow from it.
 */

/** How many cards a section lists (the counts say how many there are); `next` lists fewer. */
export const CONTEXT_SECTION_LIMIT = 10;
export const CONTEXT_NEXT_LIMIT = 5;

export type ContextCard = Static<typeof ContextCardSchema>;
export type BoardContext = Static<typeof BoardContextSchema>;
