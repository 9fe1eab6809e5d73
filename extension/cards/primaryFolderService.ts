import type * as vscode from 'vscode';
import type { ServiceEvent } from '../../server/core/events';
import type { FolderRef } from '../service/folderServices';
import type { KanbanService } from '../service/kanbanService';

/**
 * The service of the folder the status bar speaks for (the first with a board), followed through
 * reopens: a status bar item hears that service's events and nothing else's.
 */
export class PrimaryFolderService implements vscode.Disposable {
  private stopEvents: (() => void) | null = null;
  /** The followed folder's service, once it is open. */
  service: KanbanService | null = null;

  constructor(
    private readonly primary: () => FolderRef | undefined,
    private readonly onEvent: (event: ServiceEvent, folder: FolderRef, service: KanbanService) => void,
  ) {}

  /** A folder's service opened or was replaced: answers whether it is the followed one. */
  follow(folder: FolderRef, service: KanbanService | null): boolean {
    if (folder.key !== this.primary()?.key) return false;
    this.stopEvents?.();
    this.stopEvents = null;
    this.service = service;
    if (service) this.stopEvents = service.workspace.events.on((event) => this.onEvent(event, folder, service));
    return true;
  }

  dispose(): void {
    this.stopEvents?.();
    this.stopEvents = null;
  }
}
