import { useAppState, useController } from '../context';
import type { Settings } from '../types';
import { BackgroundSection } from './BackgroundSection';
import { Sheet } from './Sheet';
import { ColumnOptions, PriorityOptions } from './Options';

type BooleanSetting = { [K in keyof Settings]: Settings[K] extends boolean ? K : never }[keyof Settings];

const TOGGLES: { key: BooleanSetting; label: string; hint: string }[] = [
  { key: 'showPriorityBadges', label: 'Priority badges', hint: 'critical, high, medium or low on each card' },
  { key: 'showAssignee', label: 'Assignee', hint: 'who the card belongs to' },
  { key: 'showDueDate', label: 'Due date', hint: 'overdue dates are highlighted' },
  { key: 'showLabels', label: 'Labels', hint: 'colored label chips' },
  { key: 'showFileName', label: 'File name', hint: 'the Markdown file behind each card' },
  { key: 'compactMode', label: 'Compact cards', hint: 'denser cards, more on screen' },
  { key: 'showDeletedColumn', label: 'Deleted column', hint: 'soft-deleted cards, to restore them' },
];

/** Every workspace setting. Each change is saved at once and reaches every open board. */
export function SettingsPanel() {
  const ctrl = useController();
  const { settings, board } = useAppState();

  function change(patch: Partial<Settings>) {
    const before = ctrl.state.settings;
    ctrl.store.set({ settings: { ...before, ...patch } });
    void ctrl
      .attempt(() => ctrl.api.updateSettings(patch))
      .then((saved) => {
        ctrl.store.set({ settings: saved ?? before });
        if (saved && 'showDeletedColumn' in patch) ctrl.scheduleFilter(0);
      });
  }

  return (
    <Sheet title="Settings" onClose={() => ctrl.store.set({ panel: null })} testId="settings-panel">
      <section class="form-section">
        <h3 class="section-title">Cards show</h3>
        {TOGGLES.map(({ key, label, hint }) => (
          <label key={key} class="toggle-row">
            <span class="toggle-text">
              <span class="toggle-label">{label}</span>
              <span class="toggle-hint">{hint}</span>
            </span>
            <input
              type="checkbox"
              role="switch"
              class="switch"
              name={key}
              checked={settings[key]}
              onChange={(e) => change({ [key]: (e.target as HTMLInputElement).checked })}
            />
          </label>
        ))}
      </section>
      <section class="form-section">
        <h3 class="section-title">New cards</h3>
        <label class="field">
          <span class="field-label">Default priority</span>
          <select
            class="input"
            name="defaultPriority"
            value={settings.defaultPriority}
            onChange={(e) =>
              change({ defaultPriority: (e.target as HTMLSelectElement).value as Settings['defaultPriority'] })
            }
          >
            <PriorityOptions />
          </select>
        </label>
        <label class="field">
          <span class="field-label">Default status</span>
          <select
            class="input"
            name="defaultStatus"
            value={settings.defaultStatus}
            onChange={(e) => change({ defaultStatus: (e.target as HTMLSelectElement).value })}
          >
            {!board?.columns.some((c) => c.id === settings.defaultStatus) && (
              <option value={settings.defaultStatus}>{settings.defaultStatus}</option>
            )}
            {board && <ColumnOptions columns={board.columns} />}
          </select>
        </label>
      </section>
      <BackgroundSection change={change} />
    </Sheet>
  );
}
