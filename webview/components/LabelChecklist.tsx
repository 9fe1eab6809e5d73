import { useState } from 'preact/hooks';
import { textOn } from '../format';
import type { Labels } from '../types';

/** Defined labels by group (named groups first, alphabetically), then the ungrouped ones. */
export function groupsOf(labels: Labels): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const name of Object.keys(labels).sort((a, b) => a.localeCompare(b))) {
    const group = labels[name].group ?? '';
    groups.set(group, [...(groups.get(group) ?? []), name]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)));
}

/**
 * Every defined label as a checkbox with its colour, by group, and a box to add one by name: the
 * drawer's label picker and the table's label editor show the same list.
 */
export function LabelChecklist({
  labels,
  selected,
  onChange,
  ariaLabel,
  inputName,
}: {
  labels: Labels;
  selected: string[];
  onChange(next: string[]): void;
  ariaLabel?: string;
  /** The checkboxes' form name (each one's value is its label). */
  inputName?: string;
}) {
  const [typed, setTyped] = useState('');
  const toggle = (name: string) =>
    onChange(selected.includes(name) ? selected.filter((l) => l !== name) : [...selected, name]);
  return (
    <div class="label-menu" role={ariaLabel ? 'group' : undefined} aria-label={ariaLabel}>
      {groupsOf(labels).map(([group, names]) => (
        <div key={group} class="label-group">
          <div class="menu-label">{group || 'Other'}</div>
          {names.map((name) => (
            <label key={name} class="label-option">
              <input
                type="checkbox"
                name={inputName}
                value={inputName ? name : undefined}
                checked={selected.includes(name)}
                onChange={() => toggle(name)}
              />
              <span
                class="label-swatch"
                style={{ background: labels[name].color, color: textOn(labels[name].color) }}
              />
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
        <input
          class="input"
          name="newLabel"
          placeholder="Another label…"
          aria-label="Add a label by name"
          value={typed}
          onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
        />
      </form>
    </div>
  );
}
