import { useController } from '../context';
import type { TaskFilter } from '../types';

const AGENT_PREFIX = 'agent:';

/** The one menu value for the two list-route filters it sets (claimed, byAgent). */
function valueOf(filter: TaskFilter): string {
  if (filter.byAgent) return AGENT_PREFIX + filter.byAgent;
  if (filter.claimed === 'true') return 'claimed';
  if (filter.claimed === 'false') return 'unclaimed';
  return '';
}

function patchOf(value: string): Pick<TaskFilter, 'claimed' | 'byAgent'> {
  if (value.startsWith(AGENT_PREFIX)) return { claimed: '', byAgent: value.slice(AGENT_PREFIX.length) };
  return { claimed: value === 'claimed' ? 'true' : value === 'unclaimed' ? 'false' : '', byAgent: '' };
}

/**
 * Claimed, unclaimed, or one agent's cards (held or reported on), as one menu: the choices exclude
 * each other, and one more pill keeps the filter bar on one row. Shown only while agents are at work
 * on the board (or the filter is set), so boards without agents look as they did.
 */
export function AgentFilter({ filter, agents }: { filter: TaskFilter; agents: string[] }) {
  const ctrl = useController();
  const value = valueOf(filter);
  // The chosen agent stays a choice after its last card was released, so the menu still says what filters.
  const names = filter.byAgent && !agents.includes(filter.byAgent) ? [...agents, filter.byAgent] : agents;
  if (!value && names.length === 0) return null;
  return (
    <label class={`filter-select agent-filter${value ? ' is-set' : ''}`}>
      <span class="visually-hidden">Agent</span>
      <select
        aria-label="Agent"
        data-testid="filter-agent"
        value={value}
        onChange={(e) => ctrl.setFilter(patchOf((e.target as HTMLSelectElement).value))}
      >
        <option value="">Agent</option>
        <option value="claimed">Claimed by an agent</option>
        <option value="unclaimed">Not claimed</option>
        {names.length > 0 && (
          <optgroup label="By agent">
            {names.map((name) => (
              <option key={name} value={AGENT_PREFIX + name}>
                {name}
              </option>
            ))}
          </optgroup>
        )}
      </select>
    </label>
  );
}
