import type { Labels } from '../../types';
import { LabelChip } from '../CardView';
import { Icon } from '../Icon';
import { Popover } from '../Popover';
import { LabelChecklist } from '../LabelChecklist';

/** The card's labels as chips, and a picker of every defined label with its color and group. */
export function LabelPicker({
  selected,
  labels,
  onChange,
}: {
  selected: string[];
  labels: Labels;
  onChange(next: string[]): void;
}) {
  const toggle = (name: string) =>
    onChange(selected.includes(name) ? selected.filter((l) => l !== name) : [...selected, name]);

  return (
    <div class="label-picker" data-testid="label-picker">
      {selected.map((name) => (
        <span key={name} class="label-picked">
          <LabelChip name={name} labels={labels} />
          <button
            type="button"
            class="icon-btn label-remove"
            aria-label={`Remove label ${name}`}
            onClick={() => toggle(name)}
          >
            <Icon name="close" size={12} />
          </button>
        </span>
      ))}
      <Popover
        label="Add or remove labels"
        buttonClass="btn btn-sm btn-ghost"
        align="left"
        testId="label-picker-toggle"
        button={
          <>
            <Icon name="tag" size={14} /> Labels
          </>
        }
      >
        {() => <LabelChecklist labels={labels} selected={selected} onChange={onChange} ariaLabel="Labels" />}
      </Popover>
    </div>
  );
}
