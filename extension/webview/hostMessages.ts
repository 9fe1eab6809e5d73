import type { HostToWebviewMessage, WebviewToHostMessage } from '../../webview/protocol';

/** Messages the board UI sends, checked before use: a webview is a page, and pages can be wrong. */
export function parseWebviewMessage(raw: unknown): WebviewToHostMessage | null {
  if (!raw || typeof raw !== 'object') return null;
  const message = raw as Record<string, unknown>;
  switch (message.type) {
    case 'ready':
      return { type: 'ready' };
    case 'request': {
      const { id, method, path, body, responseType, ifMatch } = message;
      if (typeof id !== 'number' || !Number.isSafeInteger(id)) return null;
      if (typeof method !== 'string' || !/^[A-Za-z]{3,7}$/.test(method)) return null;
      if (typeof path !== 'string' || !path.startsWith('/')) return null;
      if (ifMatch !== undefined && (typeof ifMatch !== 'string' || ifMatch.length > 1024)) return null;
      const type = responseType === 'base64' ? 'base64' : 'json';
      return { type: 'request', id, method, path, body, responseType: type, ...(ifMatch !== undefined ? { ifMatch } : {}) };
    }
    case 'download': {
      const { path, filename } = message;
      if (typeof path !== 'string' || !path.startsWith('/') || typeof filename !== 'string') return null;
      return { type: 'download', path, filename };
    }
    default:
      return null;
  }
}

/**
 * Requests the host makes of an open board beyond protocol.ts (a UI that does not know them
 * ignores them): show a board, open a card's details.
 */
export type HostCommandMessage = { type: 'showBoard'; boardId: string } | { type: 'openTask'; boardId: string; taskId: string };

export type OutgoingMessage = HostToWebviewMessage | HostCommandMessage;
