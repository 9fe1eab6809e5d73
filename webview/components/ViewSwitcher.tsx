import { useAppState, useController } from '../context';
import { applyView, deleteSavedView, saveCurrentView } from '../state/views';
import { useState } from 'preact/hooks';
import { Icon } from './Icon';
import { Popover } from './Popover';

/**
 * Saved views of the board shown (`.kanban.json` `views`, shared with the team): pick one to set the
 * filter, layout, grouping and order; save what is shown now under a name; delete one.
 */
export function ViewSwitcher() {
  const ctrl = useController();
  const { savedViews, viewId, boardId } = useAppState();
  const current = savedViews.find((v) => v.id === viewId);
  const views = savedViews.filter((v) => v.board === boardId);
  return (
    <Popover
      align="left"
      buttonClass="board-switcher view-switcher"
      label={current ? `Saved views (showing ${current.name})` : 'Saved views'}
      testId="view-switcher"
      button={
        // The top bar is one row at 1,440 px: the icon alone until a view is shown, then its name.
        current ? (
          <>
            <Icon name="filter" />
            <span class="board-switcher-name">{current.name}</span>
            <Icon name="chevronDown" size={14} />
          </>
        ) : (
          <Icon name="filter" />
        )
      }
    >
      {(close) => (
        <div class="board-list" role="menu" aria-label="Saved views">
          {views.length === 0 && <p class="board-list-empty">No saved views on this board yet.</p>}
          {views.map((view) => (
            <div key={view.id} class="view-list-row">
              <button
                type="button"
                role="menuitemradio"
                aria-checked={view.id === viewId}
                class={`board-list-item${view.id === viewId ? ' is-current' : ''}`}
                onClick={() => (close(), applyView(ctrl, view))}
              >
                <span class="board-list-name">{view.name}</span>
                <span class="chip subtle">{view.layout}</span>
              </button>
              <button
                type="button"
                class="icon-btn"
                title={`Delete the view "${view.name}"`}
                aria-label={`Delete view ${view.name}`}
                onClick={() => void deleteSavedView(ctrl, view)}
              >
                <Icon name="trash" size={14} />
              </button>
            </div>
          ))}
          <div class="menu-divider" />
          <SaveViewForm onSave={(name) => (close(), void saveCurrentView(ctrl, name))} />
        </div>
      )}
    </Popover>
  );
}

/** A name field rather than window.prompt, which a VS Code webview does not show. */
function SaveViewForm({ onSave }: { onSave: (name: string) => void }) {
  const [name, setName] = useState('');
  return (
    <form
      class="view-save"
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim()) onSave(name.trim());
      }}
    >
      <input
        class="input"
        data-testid="view-name"
        placeholder="Save current view as…"
        aria-label="Name of the new view (shared through .kanban.json)"
        value={name}
        maxLength={200}
        onInput={(event) => setName((event.target as HTMLInputElement).value)}
      />
      <button type="submit" class="btn btn-primary" data-testid="save-view" disabled={!name.trim()}>
        <Icon name="plus" size={14} /> Save
      </button>
    </form>
  );
}
