import type { Static } from '@sinclair/typebox';
import type { BoardContextSchema, ContextCardSchema } from './shapes/boardContext';

/**
 * The board at a glance for an agent about to work (`kanban context`, GET /context, MCP): who works
 * on what, what waits for a person, what is blocked, what pick would hand out next. The shape is
 * described once, in shapes/boardContext.ts with the section limits; the types follow from it.
 */

export type ContextCard = Static<typeof ContextCardSchema>;
export type BoardContext = Static<typeof BoardContextSchema>;
