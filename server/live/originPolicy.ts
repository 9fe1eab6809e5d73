import type { IncomingHttpHeaders } from 'node:http';
import { normalizeOrigin, originProblem } from '../config/origins';
import type { Workspace } from '../service/workspace';

/**
 * Any web page the user visits can send "simple" cross-site requests (a form post, fetch with
 * text/plain) to 127.0.0.1 without a CORS preflight, and open WebSockets there. Browsers mark
 * such requests with `Origin`, so writes and upgrades from a foreign origin are refused while
 * reads keep CORS open. Requests without `Origin` (curl, scripts, agents)
 * never came from a page and pass. The HTTP guard is api/originGuard.ts; WebSocket upgrades ask the
 * same policy.
 */
const VSCODE_WEBVIEW = /^vscode-webview:\/\//i;

/** Which origins may change the board: `--allow-origin` plus `.kanban.json` `server.allowedOrigins`. */
export class OriginPolicy {
  private readonly fixed: Set<string>;

  constructor(
    allowedOrigins: string[],
    private readonly ws: Workspace,
  ) {
    this.fixed = new Set(allowedOrigins.map(normalizeOrigin));
  }

  /** Why a request with these headers may not change anything, or null when it may. */
  refusal(headers: IncomingHttpHeaders): string | null {
    const origin = headers.origin;
    if (origin === undefined) return null;
    if (isOwnOrigin(origin, headers.host) || VSCODE_WEBVIEW.test(origin) || this.allows(origin)) return null;
    return refusalMessage(origin);
  }

  /** The config is read at each request, so a hand edit of `.kanban.json` applies at once. */
  private allows(origin: string): boolean {
    const normalized = normalizeOrigin(origin);
    if (this.fixed.has(normalized)) return true;
    return (this.ws.config.server?.allowedOrigins ?? []).some((allowed) => normalizeOrigin(allowed) === normalized);
  }
}

/**
 * The page the server itself serves (the board UI): same host and port as the request's Host.
 * http or https, since a TLS proxy in front may keep the Host; no other server can answer on
 * that host and port, and the Host guard has already refused foreign names (DNS rebinding).
 */
function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (!host || originProblem(origin)) return false;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return url.host === new URL(`${url.protocol}//${host}`).host;
  } catch {
    return false;
  }
}

function refusalMessage(origin: string): string {
  const short = origin.length > 200 ? `${origin.slice(0, 200)}...` : origin;
  const shown = JSON.stringify(short);
  if (origin.trim().toLowerCase() === 'null') {
    return `a sandboxed page or local file (Origin ${shown}) may not change the board; serve the page from a real origin and allow that with --allow-origin <origin> or "server": {"allowedOrigins": ["<origin>"]} in .kanban.json`;
  }
  return `a web page from origin ${shown} may not change the board; if you trust it, start the server with --allow-origin ${short} or add it to "server": {"allowedOrigins": [...]} in .kanban.json`;
}
