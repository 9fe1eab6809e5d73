import type { NextFunction, Request, Response } from 'express';
import { ForbiddenError } from '../core/errors';
import type { OriginPolicy } from '../live/originPolicy';
import { sendErrorBeforeBody } from './earlyRefusal';

export { OriginPolicy } from '../live/originPolicy';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Express middleware: refuse state-changing requests from foreign origins with 403. */
export function originGuard(policy: OriginPolicy) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!STATE_CHANGING.has(req.method)) return next();
    const refusal = policy.refusal(req.headers);
    if (refusal === null) return next();
    sendErrorBeforeBody(res, new ForbiddenError(refusal));
  };
}
