import { useState } from 'preact/hooks';
import { useAppState, useController } from '../context';
import type { DisplayBackground, DisplayScope } from '../protocol';
import { BACKGROUND_PRESETS, type Settings } from '../types';

type Mode = DisplayBackground;

/**
 * The board background. In a browser it is the team's setting in `.kanban.json`. In VS Code it is
 * the user's own (VS Code settings, `native` by default: the editor's background), unless they
 * choose to change it for the team.
 */
export function BackgroundSection({ change }: { change(patch: Partial<Settings>): void }) {
  const ctrl = useController();
  const { settings, display } = useAppState();
  const [scope, setScope] = useState<DisplayScope>('me');
  const inEditor = display !== null;
  const forTeam = !inEditor || scope === 'team';
  const own = forTeam ? null : effectiveBackground(settings, display);
  const mode: Mode = own ? own.mode : settings.boardBackgroundMode;
  const preset = own ? own.preset : settings.boardBackgroundPreset;

  function choose(nextMode: Mode, nextPreset: string): void {
    if (!inEditor) {
      change({
        boardBackgroundMode: nextMode as Settings['boardBackgroundMode'],
        boardBackgroundPreset: nextPreset as Settings['boardBackgroundPreset'],
      });
      return;
    }
    // Shown at once; the host keeps it (VS Code settings or .kanban.json) and confirms with `display`.
    ctrl.store.set({
      display: forTeam ? { background: 'shared', preset: nextPreset } : { background: nextMode, preset: nextPreset },
    });
    if (forTeam)
      ctrl.store.set({
        settings: {
          ...ctrl.state.settings,
          boardBackgroundMode: nextMode as Settings['boardBackgroundMode'],
          boardBackgroundPreset: nextPreset as Settings['boardBackgroundPreset'],
        },
      });
    ctrl.transport.notifyHost?.({
      type: 'setDisplay',
      scope: forTeam ? 'team' : 'me',
      background: nextMode,
      preset: nextPreset,
    });
  }

  const modes: Mode[] = forTeam ? ['fancy', 'plain'] : ['native', 'plain', 'fancy'];
  return (
    <section class="form-section" data-testid="background-section">
      <h3 class="section-title">Board background</h3>
      {inEditor && (
        <div class="segmented" role="radiogroup" aria-label="Change the background for">
          {(['me', 'team'] as const).map((s) => (
            <button
              key={s}
              type="button"
              role="radio"
              aria-checked={scope === s}
              class={scope === s ? 'is-on' : ''}
              onClick={() => setScope(s)}
            >
              {s === 'me' ? 'Just me (VS Code settings)' : 'The team (.kanban.json)'}
            </button>
          ))}
        </div>
      )}
      <div class="segmented" role="radiogroup" aria-label="Background mode">
        {modes.map((m) => (
          <button
            key={m}
            type="button"
            role="radio"
            aria-checked={mode === m}
            class={mode === m ? 'is-on' : ''}
            onClick={() => choose(m, preset)}
          >
            {m === 'native' ? 'Editor' : m === 'fancy' ? 'Fancy' : 'Plain'}
          </button>
        ))}
      </div>
      {mode !== 'native' && (
        <div class="preset-grid" role="radiogroup" aria-label="Background preset">
          {BACKGROUND_PRESETS.map((p) => (
            <button
              key={p}
              type="button"
              role="radio"
              aria-checked={preset === p}
              data-preset={p}
              class={`preset-tile bg-${p} bg-mode-${mode}${preset === p ? ' is-on' : ''}`}
              onClick={() => choose(mode, p)}
            >
              <span class="preset-name">{p}</span>
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

/** The background the board shows: the VS Code user's own choice, else the team's. */
export function effectiveBackground(
  settings: Settings,
  display: { background: Mode | 'shared'; preset: string } | null,
): { mode: Mode; preset: string } {
  if (display && display.background !== 'shared') return { mode: display.background, preset: display.preset };
  return { mode: settings.boardBackgroundMode, preset: settings.boardBackgroundPreset };
}
