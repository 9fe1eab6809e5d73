/**
 * The board each folder's commands act on (Switch Board, Search Cards, Show on Board set it), as
 * a Map that tells listeners when a choice changes, so the sidebar and the status bar follow it.
 */
export class ChosenBoards extends Map<string, string> {
  private readonly listeners = new Set<(folderKey: string) => void>();

  override set(folderKey: string, boardId: string): this {
    const changed = this.get(folderKey) !== boardId;
    super.set(folderKey, boardId);
    // Map's constructor calls set before the listeners exist.
    if (changed && this.listeners) for (const listener of this.listeners) listener(folderKey);
    return this;
  }

  onDidChange(listener: (folderKey: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}
