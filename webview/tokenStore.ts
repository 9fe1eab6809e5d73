/**
 * The browser's API token. localStorage is per origin, so each server (host and port) keeps its
 * own token; nothing here leaves the page except as the Authorization header or the `?token=`
 * query of the WebSocket URL.
 */
const TOKEN_KEY = 'repo-kanban.token';

export function loadToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY) || null;
  } catch {
    return null;
  }
}

export function saveToken(token: string | null): void {
  try {
    if (token) window.localStorage.setItem(TOKEN_KEY, token);
    else window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Private mode or a full quota: the token lasts for this page only.
  }
}
