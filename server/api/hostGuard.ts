import type { NextFunction, Request, Response } from 'express';
import { isAllowedHost } from '../live/hostNames';

/**
 * Refuse requests whose Host header names something other than this machine or a configured host.
 * A web page can point its own domain at 127.0.0.1 (DNS rebinding); such requests carry that
 * domain in Host, so this stops them while CORS stays open.
 */
export function hostGuard(allowedHosts: string[]) {
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return (req: Request, res: Response, next: NextFunction) => {
    if (isAllowedHost(req.headers.host, allowed)) return next();
    res.status(403).json({
      ok: false,
      error: `requests for host "${req.headers.host ?? ''}" are refused; use 127.0.0.1 or localhost, or start the server with --allowed-host`,
    });
  };
}

export { hostNameOf, isAllowedHost } from '../live/hostNames';
