import { useMemo } from 'preact/hooks';
import { useAppState, useController } from '../context';
import { EMPTY_FILTER, PRIORITIES, filterIsActive } from '../types';
import { AgentFilter } from './AgentFilter';
import { Icon } from './Icon';
import { useFacets } from './useFacets';

/** Due windows as the list route names them, with what the menu shows (days are UTC days). */
const DUE_OPTIONS: Record<string, string> = {
  overdue: 'Overdue',
  today: 'Due today',
  week: 'Due this week',
  none: 'No due date',
};

function Select({
  label,
  value,
  options,
  onChange,
  testId,
  names,
}: {
  label: string;
  value: string;
  options: string[];
  onChange(value: string): void;
  testId: string;
  /** What each option shows, when not its value. */
  names?: Record<string, string>;
}) {
  return (
    <label class={`filter-select${value ? ' is-set' : ''}`}>
      <span class="visually-hidden">{label}</span>
      <select
        aria-label={label}
        data-testid={testId}
        value={value}
        onChange={(e) => onChange((e.target as HTMLSelectElement).value)}
      >
        <option value="">{label}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {names?.[option] ?? option}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Search (exact by default, fuzzy on demand, `meta.field: value` tokens) and filters. The server
 * does the matching; the board shows what it answers, as you type.
 */
export function SearchBar() {
  const ctrl = useController();
  const { filter, tasks, labels, matchesFilter } = useAppState();
  // Busy from a change of the filter until the board shows its answer (assistive tech, and the bench).
  const searching = filterIsActive(filter) && matchesFilter !== filter;

  const facets = useFacets(tasks);
  const assignees = facets.assignees;
  const labelNames = useMemo(
    () => [...new Set([...Object.keys(labels), ...facets.labelNames])].sort(),
    [facets, labels],
  );
  const groups = useMemo(
    () =>
      [
        ...new Set(
          Object.values(labels)
            .map((l) => l.group)
            .filter((g): g is string => Boolean(g)),
        ),
      ].sort(),
    [labels],
  );

  return (
    <div class="search-bar" role="search" aria-busy={searching}>
      <div class={`search-box${filter.q ? ' has-text' : ''}`}>
        <Icon name="search" />
        <input
          id="search-input"
          type="search"
          placeholder="Search cards…  (/)"
          aria-label="Search cards"
          autocomplete="off"
          spellcheck={false}
          value={filter.q}
          onInput={(e) => ctrl.setFilter({ q: (e.target as HTMLInputElement).value })}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              if (filter.q) ctrl.setFilter({ q: '' });
              else (e.target as HTMLInputElement).blur();
            }
          }}
        />
        <button
          type="button"
          class={`search-toggle${filter.fuzzy ? ' is-on' : ''}`}
          aria-pressed={filter.fuzzy}
          title={filter.fuzzy ? 'Fuzzy matching is on (typos tolerated)' : 'Exact matching; click for fuzzy'}
          onClick={() => ctrl.setFilter({ fuzzy: !filter.fuzzy })}
        >
          <Icon name="fuzzy" size={14} />
          <span class="search-toggle-text">Fuzzy</span>
        </button>
      </div>
      <div class="filters">
        <Select
          label="Priority"
          testId="filter-priority"
          value={filter.priority}
          options={[...PRIORITIES]}
          onChange={(priority) => ctrl.setFilter({ priority })}
        />
        <Select
          label="Assignee"
          testId="filter-assignee"
          value={filter.assignee}
          options={assignees}
          onChange={(assignee) => ctrl.setFilter({ assignee })}
        />
        <Select
          label="Label"
          testId="filter-label"
          value={filter.label}
          options={labelNames}
          onChange={(label) => ctrl.setFilter({ label })}
        />
        <Select
          label="Due"
          testId="filter-due"
          value={filter.due}
          options={Object.keys(DUE_OPTIONS)}
          names={DUE_OPTIONS}
          onChange={(due) => ctrl.setFilter({ due })}
        />
        <button
          type="button"
          class={`search-toggle${filter.ready ? ' is-on' : ''}`}
          data-testid="filter-ready"
          aria-pressed={filter.ready}
          title={
            filter.ready
              ? 'Showing only cards ready to start; click to show all'
              : 'Show only cards ready to start: not blocked and not finished'
          }
          onClick={() => ctrl.setFilter({ ready: !filter.ready })}
        >
          Ready
        </button>
        {groups.length > 0 && (
          <Select
            label="Label group"
            testId="filter-group"
            value={filter.labelGroup}
            options={groups}
            onChange={(labelGroup) => ctrl.setFilter({ labelGroup })}
          />
        )}
        <AgentFilter filter={filter} agents={facets.agents} />
        {filterIsActive(filter) && (
          <button
            type="button"
            class="btn btn-ghost btn-sm"
            onClick={() => ctrl.setFilter({ ...EMPTY_FILTER, fuzzy: filter.fuzzy })}
          >
            Clear
          </button>
        )}
      </div>
    </div>
  );
}
