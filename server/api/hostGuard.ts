import type { NextFunction, Request, Response } from 'express';
import { isIP } from 'node:net';

/**
 * Refuse requests whose Host header names something other than this machine or a configured host.
 * A web page can point its own domain at 127.0.0.1 (DNS rebinding); such requests carry that
 * domain in Host, so this stops them while CORS stays open.
 */
export function hostGuard(allowedHosts: string[]) {
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return (req: Request, res: Response, next: NextFunction) => {
    if (isAllowedHost(req.headers.host, allowed)) return next();
    res.status(403).json({ ok: false, error: `requests for host "${req.headers.host ?? ''}" are refused; use 127.0.0.1 or localhost, or start the server with --allowed-host` });
  };
}

export function hostNameOf(hostHeader: string): string {
  const trimmed = hostHeader.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(1, trimmed.indexOf(']'));
  const colon = trimmed.lastIndexOf(':');
  return colon >= 0 ? trimmed.slice(0, colon) : trimmed;
}

export function isAllowedHost(hostHeader: string | undefined, allowed: Set<string>): boolean {
  if (!hostHeader) return true; // HTTP/1.0 clients and some tools send none; a browser always does.
  const name = hostNameOf(hostHeader);
  if (isIP(name)) return true; // an IP literal cannot be rebound
  return name === 'localhost' || name.endsWith('.localhost') || allowed.has(name);
}
