import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { RequestAuth } from '../auth/gate';
import { roleAtLeast } from '../auth/identity';
import { checkAgentName } from '../core/claims';
import { ValidationError } from '../core/errors';
import { selectionProblem, type McpServerOptions } from './mcpServer';
import { commaNames } from './toolsets';

/** Who calls /mcp and what they are offered: what one HTTP request's server instance is built with. */
export type McpHttpCaller = Pick<McpServerOptions, 'toolsets' | 'tools' | 'readOnly' | 'agent' | 'agentSuffix'> & {
  /** The bearer token the request carried: every tool's API call carries it on. */
  token?: string;
};

/** `?toolsets=cards,boards` (a repeated parameter counts as more names); undefined when absent. */
function namesOf(query: Request['query'], key: 'toolsets' | 'tools'): string[] | undefined {
  const raw = query[key];
  if (raw === undefined) return undefined;
  const names = commaNames([raw].flat().join(','));
  if (!names.length) throw new ValidationError(`${key} needs at least one name`);
  return names;
}

function readOnlyOf(query: Request['query']): boolean {
  const raw = query.readOnly;
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ValidationError('readOnly is true or false');
}

/**
 * Over HTTP each request gets a server instance of its own, so the per-connection suffix of stdio
 * would make every call a new agent, and a card picked in one request would be held against the
 * next. The suffix is drawn from the token instead: stable for one caller across requests and
 * restarts, different between tokens, and it says nothing about the token. Callers without a token
 * (auth off) share one suffix; two sessions that must be two agents send `X-Kanban-Agent`.
 */
export function agentSuffixOf(token: string | undefined): string {
  const digest = createHash('sha256')
    .update(`kanban-mcp-agent:${token ?? ''}`)
    .digest();
  return (digest.readUInt32BE(0) % 36 ** 4).toString(36).padStart(4, '0');
}

/**
 * The query picks the tools as `kanban mcp`'s flags do; a viewer gets only the read-only ones,
 * since every other tool's call would be refused. Throws ValidationError (400) for unknown names.
 */
export function mcpHttpCaller(req: Request, auth: RequestAuth | undefined, token: string | undefined): McpHttpCaller {
  const toolsets = namesOf(req.query, 'toolsets');
  const tools = namesOf(req.query, 'tools');
  const problem = selectionProblem({ toolsets, tools });
  if (problem) throw new ValidationError(problem);
  const identity = auth?.identity;
  const mayWrite = identity ? roleAtLeast(identity.role, 'editor') : false;
  const header = req.headers['x-kanban-agent'];
  const agent = header === undefined ? undefined : checkAgentName([header].flat().join(', '), 'X-Kanban-Agent');
  return {
    toolsets,
    tools,
    readOnly: readOnlyOf(req.query) || !mayWrite,
    agent,
    agentSuffix: agentSuffixOf(token),
    token,
  };
}
