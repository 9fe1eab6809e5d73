import { SESSION_STATE_NAMES, safeLink, timeLeftText } from '../../agents';
import { useController } from '../../context';
import { dateTime } from '../../format';
import { clearSession, releaseClaim } from '../../state/agentActions';
import type { CardSession, TaskView } from '../../types';
import { ConfirmButton } from '../ConfirmButton';
import { useTimeLeft } from '../useTimeLeft';

/** The session's link: followed only when it is http(s), in a new tab that cannot reach back to the board. */
function SessionLink({ url }: { url: string }) {
  const safe = safeLink(url);
  if (!safe)
    return (
      <span class="agent-url" title="Not an http(s) link: shown, not opened">
        {url}
      </span>
    );
  return (
    <a class="agent-url" href={safe} target="_blank" rel="noopener noreferrer" data-testid="agent-link">
      {safe}
    </a>
  );
}

function SessionFacts({ session }: { session: CardSession }) {
  return (
    <>
      <dt>State</dt>
      <dd data-testid="agent-state">
        {SESSION_STATE_NAMES[session.state]}
        {session.stale && (
          <span class="agent-stale-note"> · stale (no report since {dateTime(session.updatedAt)})</span>
        )}
        {!session.stale && (
          <span class="agent-when">
            {' '}
            · {dateTime(session.updatedAt)}, by {session.agent}
          </span>
        )}
      </dd>
      {session.note && (
        <>
          <dt>Note</dt>
          <dd class="agent-note" data-testid="agent-note">
            {session.note}
          </dd>
        </>
      )}
      {session.url && (
        <>
          <dt>Link</dt>
          <dd>
            <SessionLink url={session.url} />
          </dd>
        </>
      )}
    </>
  );
}

/**
 * The agent at work on the card: its claim (who, since, until), what it last reported (state, note,
 * link), and a person's ways to step in: release the claim, clear the session. Both ask first, then
 * go through the transport as any other change, so they work in a browser and in VS Code alike.
 */
export function AgentSection({ task, onSaved }: { task: TaskView; onSaved(task: TaskView): void }) {
  const ctrl = useController();
  const left = useTimeLeft(task.claim ?? null);
  const claim = task.claim && left > 0 ? task.claim : null;
  const session = task.session ?? null;
  if (!claim && !session) return null;
  const settle = (answer: Promise<TaskView | undefined>) => void answer.then((card) => card && onSaved(card));
  return (
    <section class="drawer-section drawer-agent" aria-label="Agent" data-testid="agent-section">
      <h3 class="section-title">Agent</h3>
      <dl class="agent-facts">
        {claim && (
          <>
            <dt>Claimed by</dt>
            <dd data-testid="agent-claim">
              <strong>{claim.agent}</strong> · {timeLeftText(left)}
            </dd>
            <dt>Since</dt>
            <dd>{dateTime(claim.since)}</dd>
            <dt>Until</dt>
            <dd>{dateTime(claim.until)}</dd>
          </>
        )}
        {session && <SessionFacts session={session} />}
      </dl>
      <div class="drawer-actions">
        {claim && (
          <ConfirmButton
            class="btn btn-sm"
            question={`Release agent ${claim.agent}'s claim? The card is then free for any agent.`}
            confirmLabel="Release claim"
            onConfirm={() => settle(releaseClaim(ctrl, task))}
          >
            Release claim
          </ConfirmButton>
        )}
        {session && (
          <ConfirmButton
            class="btn btn-sm btn-ghost"
            question="Clear what the agent last reported?"
            confirmLabel="Clear session"
            onConfirm={() => settle(clearSession(ctrl, task))}
          >
            Clear session
          </ConfirmButton>
        )}
      </div>
    </section>
  );
}
