import { useController } from '../context';
import { SHORTCUTS, type Shortcut } from '../shortcuts';
import { Sheet } from './Sheet';

/** Every shortcut, grouped by where it applies, straight from the one table keyboard.ts uses. */
export function ShortcutsHelp() {
  const ctrl = useController();
  const table: readonly Shortcut[] = SHORTCUTS;
  const places = [...new Set(table.map((s) => s.where))];
  return (
    <Sheet title="Keyboard shortcuts" testId="shortcuts-help" onClose={() => ctrl.store.set({ panel: null })}>
      {places.map((where) => (
        <section key={where} class="shortcut-group">
          <h3 class="shortcut-place">{where}</h3>
          <dl class="shortcut-list">
            {table
              .filter((s) => s.where === where)
              .map((s) => (
                <div key={s.id} class="shortcut" data-shortcut={s.id}>
                  <dt>
                    {s.keys.map((key, i) => (
                      <span key={key}>
                        {i > 0 && <span class="shortcut-or"> or </span>}
                        <kbd>{key}</kbd>
                      </span>
                    ))}
                  </dt>
                  <dd>{s.does}</dd>
                </div>
              ))}
          </dl>
        </section>
      ))}
    </Sheet>
  );
}
