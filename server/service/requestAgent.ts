import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The agent a request acts as (X-Kanban-Agent), for checks deep in the service that the request's
 * handler does not reach with arguments: the card write guard refuses another agent's write to a
 * claimed card wherever the write comes from (an update, a move, a comment, a bulk change). Only
 * agents' requests run inside a store; a person's (no header) pays nothing.
 */
const current = new AsyncLocalStorage<string>();

export function runAsAgent<T>(agent: string | null, work: () => Promise<T>): Promise<T> {
  return agent === null ? work() : current.run(agent, work);
}

/** The agent the running request acts as, or null for a person (and outside any request). */
export function currentAgent(): string | null {
  return current.getStore() ?? null;
}
