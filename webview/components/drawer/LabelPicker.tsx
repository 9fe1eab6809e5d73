import { useState } from 'preact/hooks';
import { textOn } from '../../format';
import type { Labels } from '../../types';
import { LabelChip } from '../CardView';
import { Icon } from '../Icon';
import { Popover } from '../Popover';

/** Defined labels by group (named groups first, alphabetically), then the ungrouped ones. */
export function groupsOf(labels: Labels): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const name of Object.keys(labels).sort((a, b) => a.localeCompare(b))) {
    const group = labels[name].group ?? '';
    groups.set(group, [...(groups.get(group) ?? []), name]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)));
}

/** The card's labels as chips, and a picker of every defined label with its color and group. */
export function LabelPicker({ selected, labels, onChange }: { selected: string[]; labels: Labels; onChange(next: string[]): void }) {
  const [typed, setTyped] = useState('');
  const toggle = (name: string) => onChange(selected.includes(name) ? selected.filter((l) => l !== name) : [...selected, name]);

  return (
    <div class="label-picker" data-testid="label-picker">
      {selected.map((name) => (
        <span key={name} class="label-picked">
          <LabelChip name={name} labels={labels} />
          <button type="button" class="icon-btn label-remove" aria-label={`Remove label ${name}`} onClick={() => toggle(name)}>
            <Icon name="close" size={12} />
          </button>
        </span>
      ))}
      <Popover label="Add or remove labels" buttonClass="btn btn-sm btn-ghost" align="left" testId="label-picker-toggle" button={<><Icon name="tag" size={14} /> Labels</>}>
        {() => (
          <div class="label-menu" role="group" aria-label="Labels">
            {groupsOf(labels).map(([group, names]) => (
              <div key={group} class="label-group">
                <div class="menu-label">{group || 'Other'}</div>
                {names.map((name) => (
                  <label key={name} class="label-option">
                    <input type="checkbox" checked={selected.includes(name)} onChange={() => toggle(name)} />
                    <span class="label-swatch" style={{ background: labels[name].color, color: textOn(labels[name].color) }} />
                    <span>{name}</span>
                  </label>
                ))}
              </div>
            ))}
            <form
              class="menu-form"
              onSubmit={(e) => {
                e.preventDefault();
                const name = typed.trim();
                if (name && !selected.includes(name)) onChange([...selected, name]);
                setTyped('');
              }}
            >
              <input class="input" name="newLabel" placeholder="Another label…" aria-label="Add a label by name" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
            </form>
          </div>
        )}
      </Popover>
    </div>
  );
}
