import { isIP } from 'node:net';

/** The Host header checks the HTTP guard (api/hostGuard.ts) and the WebSocket upgrade share. */

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
