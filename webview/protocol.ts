/**
 * Messages between the board UI and its host. The same event shape travels over the standalone
 * server's `/ws` WebSocket and over VS Code's postMessage bridge, so the UI handles one stream.
 * The extension host imports these types; keep this file free of DOM or Node imports.
 */

import type { ServiceEvent } from '../server/core/events';

/**
 * One change in the workspace, as the service emitted it (server/core/eventPayloads.ts says what
 * each event's `data` holds; narrowing on `event` types it). `revision` grows by one per change: a
 * gap means missed events, so the UI re-fetches everything.
 */
export type EventMessage = { type: 'event' } & ServiceEvent;

/** First message on every (re)connection: the revision the host is at. */
export interface HelloMessage {
  type: 'hello';
  revision: number;
}

/** What the server sends over `/ws`. */
export type SocketServerMessage = HelloMessage | EventMessage;

/** What a client may send over `/ws`: which board's events it wants (`*` for all). */
export interface SubscribeMessage {
  type: 'subscribe';
  boardId: string;
}

/** How the host should hand back a response body: parsed JSON (default) or a file as base64. */
export type ResponseType = 'json' | 'base64';

/** A base64 file answer, for `responseType: 'base64'` requests. */
export interface FilePayload {
  contentType: string;
  data: string;
}

/** A card file or `.kanban.json` that does not parse (GET /api/workspace `invalidFiles`). */
export interface BrokenFile {
  /** Relative to the kanban root, with `/` separators. */
  path: string;
  reason: string;
  /** 1-based, when the parser named a line. */
  line?: number;
  /** The file parses but is a second copy of the card served from this path. */
  duplicateOf?: string;
}

/** The board background inside VS Code: `native` is the editor's own background. */
export type DisplayBackground = 'native' | 'plain' | 'fancy';

/**
 * Display choices a VS Code user made for themselves (VS Code settings `kanban.board.*`); they
 * win over the shared `.kanban.json` settings, except `shared`, which follows the file.
 */
export interface DisplayPreferences {
  background: DisplayBackground | 'shared';
  preset: string;
}

/** Who a display change is for: the user (VS Code settings) or the whole team (`.kanban.json`). */
export type DisplayScope = 'me' | 'team';

/**
 * What only the VS Code host sends, beside the API traffic: commands from the palette, the files
 * that do not parse, and the user's display preferences. A UI in a browser never receives them.
 */
export type HostNoticeMessage =
  /** Show this board (Switch Board). */
  | { type: 'showBoard'; boardId: string }
  /** Show this board with the card's details open (Search Cards). */
  | { type: 'openTask'; boardId: string; taskId: string }
  /** The files that do not parse now; sent after every hello and whenever the list changes. */
  | { type: 'invalidFiles'; files: BrokenFile[] }
  /** The user's display preferences; sent after every hello and whenever they change. */
  | { type: 'display'; display: DisplayPreferences }
  /** The author name for new comments (`git config user.name` of the folder, else the OS user). */
  | { type: 'identity'; name: string }
  /** Why the board is read-only (Restricted Mode), or null once it is not; sent after every hello. */
  | { type: 'readOnly'; notice: string | null };

/** Webview -> extension host. */
export type WebviewToHostMessage =
  /** Sent once the UI listens; the host answers with `hello` and only then sends events. */
  | { type: 'ready' }
  /**
   * An API call: `path` is the part after `/api`, with its query string; `ifMatch` as the HTTP
   * `If-Match` header (the change applies only to that version, else 412).
   */
  | {
      type: 'request';
      id: number;
      method: string;
      path: string;
      body?: unknown;
      responseType?: ResponseType;
      ifMatch?: string;
    }
  /** Save an attachment (the host shows a save dialog); `path` as for `request`. */
  | { type: 'download'; path: string; filename: string }
  /** The board now on screen, so the palette's Switch Board and Add Card act on it. */
  | { type: 'boardShown'; boardId: string }
  /** Open a file of the kanban root in the editor (a broken file from the notice), at a line. */
  | { type: 'openFile'; path: string; line?: number }
  /** A display choice, kept in VS Code settings (`me`) or `.kanban.json` (`team`). */
  | { type: 'setDisplay'; scope: DisplayScope; background: DisplayBackground; preset: string }
  /** Put text on the clipboard (Copy id, Copy link): the editor's clipboard, not the page's. */
  | { type: 'copyText'; text: string }
  /** Copy a vscode:// link that opens this card (the host knows the URI scheme and the extension id). */
  | { type: 'copyCardLink'; boardId: string; taskId: string };

/** Extension host -> webview. */
export type HostToWebviewMessage =
  | HelloMessage
  | EventMessage
  /**
   * The answer to `request` with the same id: the HTTP status and the JSON envelope (or a
   * FilePayload); `etag` as the HTTP `ETag` header, when the answer names one resource's version;
   * `warnings` as the HTTP `Warning` headers (the change went ahead, the user should hear this).
   * `utf8` instead of `body`: the envelope as JSON text in UTF-8, for an answer the service holds
   * as text (a card list). 10,000 cards cross the editor's message passing far faster as one text
   * than as 10,000 objects, and as bytes faster than as a string: the editor carries a byte array
   * as it is, where a string inside its JSON message is escaped and read back on every hop (at
   * 10,000 cards, 3.3 MB: about 110-180 ms from request to answer in the page against 220 ms).
   */
  | {
      type: 'response';
      id: number;
      status: number;
      body: unknown;
      utf8?: Uint8Array;
      etag?: string;
      warnings?: string[];
    }
  /** The host lost and regained its service (e.g. a reload); the UI shows "reconnecting" until the next hello. */
  | { type: 'disconnected' }
  | HostNoticeMessage;
