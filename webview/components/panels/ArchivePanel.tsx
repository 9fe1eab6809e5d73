import { useEffect, useRef, useState } from 'preact/hooks';
import { useAppState, useController } from '../../context';
import { onArchiveChange } from '../../state/liveEvents';
import { placeTask } from '../../state/placement';
import type { TaskView } from '../../types';
import { Icon } from '../Icon';
import { Sheet } from '../Sheet';

/** How long the search waits after the last key before asking the server. */
const SEARCH_PAUSE_MS = 200;

/**
 * The board's archive: archived cards, searched by the server's own text search, each with a
 * restore button that brings it back to the column it kept. Re-read whenever the archive changes
 * (this window, another one, a hand move of a file).
 */
export function ArchivePanel() {
  const ctrl = useController();
  const { board } = useAppState();
  const [query, setQuery] = useState('');
  const [cards, setCards] = useState<TaskView[] | null>(null);
  const generation = useRef(0);

  async function load(text: string) {
    const boardId = ctrl.state.boardId;
    if (!boardId) return;
    const mine = ++generation.current;
    const found = await ctrl.attempt(() => ctrl.api.listArchived(boardId, text));
    // A slower answer to an older search must not replace a newer one.
    if (found && mine === generation.current) setCards(found);
  }

  useEffect(() => {
    const timer = setTimeout(() => void load(query), query ? SEARCH_PAUSE_MS : 0);
    return () => clearTimeout(timer);
  }, [query, board?.id]);

  useEffect(() => onArchiveChange(() => void load(query)), [query]);

  async function restore(card: TaskView) {
    const boardId = ctrl.state.boardId;
    if (!boardId) return;
    const restored = await ctrl.attempt(() => ctrl.api.restoreTask(boardId, card.id));
    if (!restored) return;
    if (ctrl.state.boardId === boardId) ctrl.store.set((s) => placeTask(s, restored));
    setCards((list) => list?.filter((c) => c.id !== card.id) ?? null);
    ctrl.toast('info', `“${restored.title}” restored to ${columnName(restored.status)}.`);
  }

  const columnName = (status: string) => board?.columns.find((c) => c.id === status)?.name ?? status;

  return (
    <Sheet title="Archive" onClose={() => ctrl.store.set({ panel: null })} testId="archive-panel">
      <input
        class="input"
        type="search"
        placeholder="Search the archive"
        aria-label="Search the archive"
        value={query}
        onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
      />
      {cards === null ? (
        <p class="field-hint">Loading…</p>
      ) : cards.length === 0 ? (
        <p class="field-hint" data-testid="archive-empty">
          {query.trim() ? 'No archived card matches.' : 'Nothing archived on this board.'}
        </p>
      ) : (
        <ul class="archive-list" aria-label="Archived cards">
          {cards.map((card) => (
            <li key={card.id} class="archive-item" data-archived-id={card.id}>
              <div class="archive-item-text">
                <span class="archive-item-title">{card.title}</span>
                <span class="field-hint archive-item-meta">
                  {columnName(card.status)} · archived {card.archivedAt?.slice(0, 10)}
                </span>
              </div>
              <button
                type="button"
                class="btn btn-sm"
                aria-label={`Restore ${card.title}`}
                onClick={() => void restore(card)}
              >
                <Icon name="restore" size={14} /> Restore
              </button>
            </li>
          ))}
        </ul>
      )}
    </Sheet>
  );
}
