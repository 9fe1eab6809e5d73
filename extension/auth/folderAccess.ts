import * as vscode from 'vscode';
import type { DispatchRequest, DispatchResponse } from '../../server/api/dispatch';
import type { FolderRef } from '../service/folderServices';
import type { KanbanService } from '../service/kanbanService';
import type { TokenStore } from './tokenStore';
import { RESTRICTED_WRITE, workspaceTrusted } from '../trust';

/** Methods that only read; every other route of the table changes something. */
const READS = new Set(['GET', 'HEAD']);

export const SET_TOKEN = 'Set Token';
export const SET_TOKEN_COMMAND = 'kanban.setApiToken';

/** Who the folder's token identifies, as GET /api/auth reports it (never the token itself). */
export interface TokenCheck {
  authEnabled: boolean;
  subject: string | null;
  role: string | null;
  error: string | null;
}

/**
 * Every in-process call (webview bridge, palette commands) goes through here, so each carries the
 * folder's stored token exactly as an HTTP client would send `Authorization: Bearer`. When auth is
 * on in `.kanban.json` the service then acts as that subject with that role, and a refusal for a
 * missing or rejected token turns into one offer to set it. It is also where Restricted Mode
 * refuses every write, whichever command or page asked.
 */
export class FolderAccess {
  /** Folders whose Set Token offer is on screen: a board load makes several calls at once. */
  private offering = new Set<string>();

  constructor(readonly tokens: TokenStore) {}

  async dispatch(
    service: KanbanService,
    folder: FolderRef,
    request: Omit<DispatchRequest, 'token'>,
  ): Promise<DispatchResponse> {
    if (!READS.has(request.method.toUpperCase()) && (service.readOnly || !workspaceTrusted()))
      return { status: 403, body: { ok: false, error: RESTRICTED_WRITE } };
    const token = await this.tokens.get(folder);
    const answer = await service.dispatcher.dispatch({ ...request, token });
    if (answer.status !== 401) return answer;
    this.offerToken(folder, token !== undefined, errorOf(answer));
    // The service's advice (send an Authorization header) is for HTTP clients; here the remedy is a command.
    const error =
      token === undefined
        ? 'authentication required: run "Kanban: Set API Token" with a token from the auth.identity provider in .kanban.json'
        : `the stored API token was refused (${errorOf(answer)}): run "Kanban: Set API Token" to replace it`;
    return { status: 401, body: { ok: false, error } };
  }

  /** May this folder's caller see the board at all? (Events are only forwarded to those who may.) */
  async check(service: KanbanService, folder: FolderRef): Promise<TokenCheck> {
    const token = await this.tokens.get(folder);
    const answer = await service.dispatcher.dispatch({ method: 'GET', path: '/auth', token });
    const data = (answer.body?.ok ? answer.body.data : null) as {
      enabled?: boolean;
      subject?: string | null;
      role?: string | null;
      identityError?: string | null;
    } | null;
    return {
      authEnabled: data?.enabled === true,
      subject: data?.subject ?? null,
      role: data?.role ?? null,
      error: data?.identityError ?? null,
    };
  }

  /**
   * A notification with a Set Token button; shown once at a time per folder. Returns whether it
   * was shown, so callers need not also report the same refusal.
   */
  offerToken(folder: FolderRef, hadToken: boolean, reason: string): boolean {
    if (this.offering.has(folder.key)) return false;
    this.offering.add(folder.key);
    const text = hadToken
      ? `Kanban: the API token stored for ${folder.name} was refused (${reason}). Set another one.`
      : `Kanban: the board in ${folder.name} requires authentication (auth.identity in .kanban.json). Set an API token to use it.`;
    void Promise.resolve(vscode.window.showWarningMessage(text, SET_TOKEN))
      .then(async (choice) => {
        this.offering.delete(folder.key);
        if (choice === SET_TOKEN) await vscode.commands.executeCommand(SET_TOKEN_COMMAND, folder.key);
      })
      .catch(() => this.offering.delete(folder.key));
    return true;
  }
}

function errorOf(answer: DispatchResponse): string {
  return answer.body && answer.body.ok === false ? answer.body.error : `status ${answer.status}`;
}
