import { useMemo, useState } from 'preact/hooks';
import { useAppState, useController } from '../context';
import { groupingName, labelGroupsOf, metadataPathsOf, parseGroupBy } from '../state/lanes';

/** The option that asks for a metadata key not yet on any card. */
const TYPED_KEY = '__typed-metadata-key';

/**
 * Group by: the board's rows become swimlanes of one field (assignee, priority, a label group or a
 * metadata key picked from the keys in use or typed). Part of the view, like the filters.
 */
export function GroupByControl() {
  const ctrl = useController();
  const { groupBy, tasks, labels } = useAppState();
  const [typing, setTyping] = useState(false);
  const paths = useMemo(() => metadataPathsOf(Object.values(tasks)), [tasks]);
  const options: string[] = ['assignee', 'priority', ...labelGroupsOf(labels).map((g) => `labelGroup:${g}`), ...paths.map((p) => `metadata:${p}`)];
  if (groupBy && !options.includes(groupBy)) options.push(groupBy);
  const grouping = parseGroupBy(groupBy);

  function choose(value: string | null): void {
    setTyping(false);
    ctrl.store.set({ groupBy: value, viewId: null, drop: null });
  }

  return (
    <span class="group-by">
      <label class={`filter-select${grouping ? ' is-set' : ''}`}>
        <span class="visually-hidden">Group by</span>
        <select
          aria-label="Group by"
          data-testid="group-by"
          value={typing ? TYPED_KEY : (groupBy ?? '')}
          onChange={(e) => {
            const value = (e.target as HTMLSelectElement).value;
            if (value === TYPED_KEY) setTyping(true);
            else choose(value || null);
          }}
        >
          <option value="">{grouping ? 'No lanes' : 'Group by'}</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {groupingName(parseGroupBy(option)!)}
            </option>
          ))}
          <option value={TYPED_KEY}>Metadata key…</option>
        </select>
      </label>
      {typing && (
        <input
          class="group-by-key"
          data-testid="group-by-key"
          placeholder="key, e.g. links.jira"
          aria-label="Metadata key to group by"
          autoFocus
          onKeyDown={(e) => {
            const value = (e.target as HTMLInputElement).value.trim();
            if (e.key === 'Enter' && value) choose(`metadata:${value}`);
            else if (e.key === 'Escape') {
              e.stopPropagation();
              setTyping(false);
            }
          }}
        />
      )}
    </span>
  );
}
