import { BACKGROUND_PRESETS } from '../../server/core/shapes/vocabulary';
import type { HostNoticeMessage, HostToWebviewMessage, WebviewToHostMessage } from '../../webview/protocol';

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
      return {
        type: 'request',
        id,
        method,
        path,
        body,
        responseType: type,
        ...(ifMatch !== undefined ? { ifMatch } : {}),
      };
    }
    case 'download': {
      const { path, filename } = message;
      if (typeof path !== 'string' || !path.startsWith('/') || typeof filename !== 'string') return null;
      return { type: 'download', path, filename };
    }
    case 'boardShown':
      return typeof message.boardId === 'string' && message.boardId.length <= 200
        ? { type: 'boardShown', boardId: message.boardId }
        : null;
    case 'openFile': {
      const { path, line } = message;
      if (typeof path !== 'string' || path.length > 1024) return null;
      const at = typeof line === 'number' && Number.isSafeInteger(line) && line >= 1 ? line : undefined;
      return { type: 'openFile', path, ...(at ? { line: at } : {}) };
    }
    case 'setDisplay': {
      const { scope, background, preset } = message;
      if (scope !== 'me' && scope !== 'team') return null;
      if (background !== 'native' && background !== 'plain' && background !== 'fancy') return null;
      if (!(BACKGROUND_PRESETS as readonly unknown[]).includes(preset)) return null;
      return { type: 'setDisplay', scope, background, preset: preset as string };
    }
    case 'copyText':
      return typeof message.text === 'string' && message.text.length <= 4096
        ? { type: 'copyText', text: message.text }
        : null;
    case 'copyCardLink': {
      const { boardId, taskId } = message;
      const fits = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 200;
      return fits(boardId) && fits(taskId)
        ? { type: 'copyCardLink', boardId: boardId as string, taskId: taskId as string }
        : null;
    }
    default:
      return null;
  }
}

/** Requests the host makes of an open board: show a board, open a card's details. */
export type HostCommandMessage = Extract<HostNoticeMessage, { type: 'showBoard' | 'openTask' }>;

export type OutgoingMessage = HostToWebviewMessage;
