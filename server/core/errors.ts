/**
 * Typed errors of the service. The HTTP adapter maps each kind to a status in one place
 * (api/errors.ts); nothing branches on message text.
 */
export abstract class ServiceError extends Error {
  abstract readonly status: number;
}

/** The request is malformed or asks for something the rules forbid. */
export class ValidationError extends ServiceError {
  readonly status = 400;
}

/**
 * The request breaks a rule given the board as it is now (a column that still holds cards, an
 * ambiguous id, a name already taken): a 400, like every request the rules refuse. 409 is kept for
 * what another party changed (a file edited on disk, a WIP block, another agent's claim).
 */
export class StateRuleError extends ServiceError {
  readonly status = 400;
}

/**
 * A file changed on disk since the service last read it (a hand edit, git, another tool), or it no
 * longer parses: the write is refused so the user's edit is never overwritten.
 */
export class FileConflictError extends ServiceError {
  readonly status = 409;
}

/** A move or create would take a column over its WIP limit on a board whose `wipPolicy` is `block`. */
export class WipLimitError extends ServiceError {
  readonly status = 409;
}

/** The card is claimed by another agent, whose lease is still running: the message names it and the expiry. */
export class ClaimedError extends ServiceError {
  readonly status = 409;
}

/** The client's `If-Match` names a version that is no longer current. */
export class PreconditionFailedError extends ServiceError {
  readonly status = 412;
}

/** The disk is full: nothing was written, and the request can be retried once space is freed. */
export class InsufficientStorageError extends ServiceError {
  readonly status = 507;
}

/** Whether an error's code (Node's errno, or SQLite's) says the disk or the quota is full. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}

export class NotFoundError extends ServiceError {
  readonly status = 404;
}

export class AuthRequiredError extends ServiceError {
  readonly status = 401;
}

export class ForbiddenError extends ServiceError {
  readonly status = 403;
}

export class PayloadTooLargeError extends ServiceError {
  readonly status = 413;
}

/**
 * A storage the service depends on (a database server) cannot be reached right now: nothing was
 * changed, and the same request can be sent again once it is back; the service reconnects by itself.
 */
export class ServiceUnavailableError extends ServiceError {
  readonly status = 503;
}

/** The active provider cannot do what was asked (attachment without stream or path). */
export class NotImplementedError extends ServiceError {
  readonly status = 501;
}

/**
 * The caller cancelled a long operation (an MCP `notifications/cancelled`, a closed HTTP request)
 * and it was undone. 499 as proxies log a request the client gave up on: nobody is left to read it.
 */
export class CancelledError extends ServiceError {
  readonly status = 499;
}
