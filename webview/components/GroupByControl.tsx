import { useState } from 'preact/hooks';
import { useAppState, useController } from '../context';
import { Icon } from './Icon';
import { groupingName, labelGroupsOf, parseGroupBy } from '../state/lanes';
import { useFacets } from './useFacets';

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
  const paths = useFacets(tasks).metadataPaths;
  const groups = labelGroupsOf(labels);
  const grouping = parseGroupBy(groupBy);
  // A key typed that no card has yet is still offered while it is the grouping.
  const keys = grouping?.kind === 'metadata' && !paths.includes(grouping.path) ? [...paths, grouping.path] : paths;

  function choose(value: string | null): void {
    setTyping(false);
    ctrl.store.set({ groupBy: value, viewId: null, drop: null });
  }

  return (
    <span class="group-by">
      {/* Only the icon shows (accented while lanes are on; the title and the lane names say by what):
          the top bar stays one row at 1440 px. */}
      <label class={`filter-select group-by-select${grouping ? ' is-set' : ''}`}>
        <Icon name="lanes" size={15} />
        <span class="visually-hidden">Group by</span>
        <select
          aria-label="Group by"
          title={grouping ? `Lanes by ${groupingName(grouping)}` : 'Group the board into lanes (swimlanes)'}
          data-testid="group-by"
          value={typing ? TYPED_KEY : (groupBy ?? '')}
          onChange={(e) => {
            const value = (e.target as HTMLSelectElement).value;
            if (value === TYPED_KEY) setTyping(true);
            else choose(value || null);
          }}
        >
          <option value="">{grouping ? 'No lanes' : 'Group by'}</option>
          <option value="assignee">Assignee</option>
          <option value="priority">Priority</option>
          {/* Short option names keep the top bar in one row; the groups (and the title) say what they are. */}
          {groups.length > 0 && (
            <optgroup label="Label group">
              {groups.map((group) => (
                <option key={group} value={`labelGroup:${group}`}>
                  {group}
                </option>
              ))}
            </optgroup>
          )}
          <optgroup label="Metadata key">
            {keys.map((path) => (
              <option key={path} value={`metadata:${path}`}>
                {path}
              </option>
            ))}
            <option value={TYPED_KEY}>Type a key…</option>
          </optgroup>
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
