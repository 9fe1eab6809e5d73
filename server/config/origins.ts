/**
 * Browser origins (`scheme://host[:port]`), as `.kanban.json` `server.allowedOrigins` and
 * `--allow-origin` name them. Pure functions: the server compares them with a request's `Origin`.
 */

/** A scheme, `://`, then a host with an optional port and nothing after it. */
const ORIGIN_FORM = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\s@\\]+)$/i;

/** Why `text` is not an origin that may be allowed, or null when it is one. */
export function originProblem(text: string): string | null {
  if (text.trim().toLowerCase() === 'null') {
    return '"null" is the origin of every sandboxed page and local file, so it cannot be allowed; serve the page from a real origin and allow that';
  }
  const match = ORIGIN_FORM.exec(text);
  const example =
    'write scheme://host[:port] such as "https://example.com" or "http://localhost:5173", with no path, query or trailing slash';
  if (!match) return `"${text}" is not an origin: ${example}`;
  if (isWebScheme(match[1])) {
    try {
      new URL(text);
    } catch {
      return `"${text}" is not an origin (the host or port is invalid): ${example}`;
    }
  }
  return null;
}

function isWebScheme(scheme: string): boolean {
  return /^https?$/i.test(scheme);
}

/**
 * The spelling browsers send (lowercase, default port left out), so `HTTPS://Example.com:443` in a
 * setting matches the `https://example.com` a browser puts in `Origin`.
 */
export function normalizeOrigin(text: string): string {
  const match = ORIGIN_FORM.exec(text);
  if (match && isWebScheme(match[1])) {
    try {
      return new URL(text).origin;
    } catch {
      // not a valid URL: compared as written below, so it matches nothing a browser sends
    }
  }
  return text.toLowerCase();
}
