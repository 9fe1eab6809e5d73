import type { NextFunction, Request, Response } from 'express';
import { authorize, bearerCredential, type RequestAuth } from '../auth/gate';
import { currentIdentityProvider } from '../service/currentIdentity';
import type { Workspace } from '../service/workspace';
import type { RouteDef } from './route';
import { sendErrorBeforeBody } from './earlyRefusal';

/**
 * Decide who is calling from the headers alone, before the body parser runs: a caller without a
 * valid token cannot make the server read (or hold) a body of any size. The decision travels on in
 * `res.locals` so the route does not ask the identity provider a second time.
 */
export function authorizeBeforeBody(ws: Workspace, route: RouteDef) {
  return async (req: Request, res: Response, next: NextFunction) => {
    let auth: RequestAuth;
    try {
      auth = await authorize(
        currentIdentityProvider(ws),
        route,
        bearerCredential(req.headers.authorization),
        ws.authHealth,
      );
    } catch (error) {
      return sendErrorBeforeBody(res, error);
    }
    res.locals.auth = auth;
    next();
  };
}

/** What `authorizeBeforeBody` decided for this request. */
export function authorizedAs(res: Response): RequestAuth | undefined {
  return res.locals.auth as RequestAuth | undefined;
}
