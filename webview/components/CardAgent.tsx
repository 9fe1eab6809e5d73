import { agentOf, sessionBadge, timeLeftText } from '../agents';
import { dateTime } from '../format';
import type { TaskView } from '../types';
import { Icon } from './Icon';

/**
 * The agent at work on a card, on the card itself: who, and for how long its claim runs
 * ("[bot] agent-1 · 12m left"; the bot is an inline icon, as an emoji needs a font the editor may
 * lack); a badge for a session a person must answer or look at ("Needs input", "Agent error"); and
 * "stale" once the agent has gone silent. Each says it in words, so nothing depends on telling
 * colours apart. `left` is the claim's time left (0 once it ran out): the card keeps the clock, so
 * its accessible name and this line read the same minute.
 */
export function CardAgent({ task, left }: { task: TaskView; left: number }) {
  const agent = agentOf(task, left);
  if (!agent) return null;
  const { claim, session } = task;
  // A claim past its end is gone, whether or not the server's release reached the page yet.
  const live = claim && left > 0 ? claim : null;
  const badge = sessionBadge(session);
  const said = session?.note ? `: ${session.note}` : '';
  return (
    <div class="card-agent" data-testid="card-agent">
      <span
        class="agent-line"
        title={
          live
            ? `Claimed by agent ${live.agent} since ${dateTime(live.since)}, until ${dateTime(live.until)}`
            : `Agent ${agent}`
        }
      >
        <Icon name="bot" size={13} />
        <span class="agent-name" data-testid="agent-name">
          {agent}
        </span>
        {live && (
          <span class="claim-left" data-testid="claim-left">
            · {timeLeftText(left)}
          </span>
        )}
        {!live && session?.state === 'complete' && <span class="claim-left">· done</span>}
      </span>
      {badge && (
        <span
          class={`chip agent-badge is-${badge.kind}`}
          data-testid="agent-badge"
          title={`${badge.text} (agent ${session?.agent})${said}`}
        >
          <Icon name={badge.kind === 'error' ? 'alert' : 'question'} size={12} />
          {badge.text}
        </span>
      )}
      {session?.stale && (
        <span
          class="chip agent-stale"
          data-testid="agent-stale"
          title={`No report from agent ${session.agent} since ${dateTime(session.updatedAt)}`}
        >
          stale
        </span>
      )}
    </div>
  );
}
