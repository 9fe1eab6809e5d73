import type * as vscode from 'vscode';
import type { FolderRef } from '../service/folderServices';

const KEY_PREFIX = 'kanban.apiToken:';

/**
 * API tokens in VS Code's SecretStorage (the OS keychain where there is one), one per workspace
 * folder: two folders may belong to two teams with two identity providers. Values are cached
 * because the webview asks for the token on every request and SecretStorage answers over IPC.
 */
export class TokenStore implements vscode.Disposable {
  private cache = new Map<string, Promise<string | undefined>>();
  /** The last value this store wrote or followed, per folder key. */
  private known = new Map<string, string | undefined>();
  private listeners = new Set<(folderKey: string) => void>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    // Another window of the same workspace may change the secret: follow it.
    this.subscription = secrets.onDidChange(({ key }) => {
      if (key.startsWith(KEY_PREFIX)) void this.followOutsideChange(key.slice(KEY_PREFIX.length));
    });
  }

  get(folder: FolderRef): Promise<string | undefined> {
    let value = this.cache.get(folder.key);
    if (!value) {
      value = Promise.resolve(this.secrets.get(KEY_PREFIX + folder.key)).then((token) => token || undefined);
      this.cache.set(folder.key, value);
      // A failed read (keychain locked) is not remembered: the next request asks again.
      value.catch(() => this.cache.delete(folder.key));
    }
    return value;
  }

  async set(folder: FolderRef, token: string): Promise<void> {
    await this.secrets.store(KEY_PREFIX + folder.key, token);
    this.changed(folder.key, token);
  }

  async clear(folder: FolderRef): Promise<void> {
    await this.secrets.delete(KEY_PREFIX + folder.key);
    this.changed(folder.key, undefined);
  }

  /** Told the folder key whenever its token is stored, replaced or removed (here or elsewhere). */
  onDidChange(listener: (folderKey: string) => void): vscode.Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  dispose(): void {
    this.subscription.dispose();
    this.listeners.clear();
    this.cache.clear();
  }

  /**
   * The editor also reports this extension's own store/delete; only a value that differs from the
   * one set here is news (so a Set Token does not reconnect every board twice).
   */
  private async followOutsideChange(folderKey: string): Promise<void> {
    const now = (await Promise.resolve(this.secrets.get(KEY_PREFIX + folderKey)).catch(() => undefined)) || undefined;
    if (!this.known.has(folderKey) || this.known.get(folderKey) !== now) this.changed(folderKey, now);
  }

  private changed(folderKey: string, value: string | undefined): void {
    this.known.set(folderKey, value);
    this.cache.set(folderKey, Promise.resolve(value));
    for (const listener of [...this.listeners]) listener(folderKey);
  }
}
