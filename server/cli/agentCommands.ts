import { DEFAULT_CLAIM_SECONDS, MAX_CLAIM_SECONDS } from '../core/claims';
import { SESSION_STATES } from '../core/shapes/vocabulary';
import { flag, str, type Command, type OptionSpec, type Parsed } from './command';
import { ID, enc, labels, show, usage, type Card } from './commandHelpers';
import { cardDetails } from './cardCommands';
import { bold, plain } from './output';
import { ExitWith } from './usage';

/**
 * `kanban pick`, `claim` and `release`: agents at work. The agent is the global --agent (or env
 * KANBAN_AGENT), sent as X-Kanban-Agent on every call, so a claimed card also refuses the writes of
 * other agents' commands. Everything else is the claim routes' (server/api/routes/claimRoutes.ts).
 */

/** Exit code of `kanban pick` when no card is pickable: a script's loop ends on it, not on an error. */
export const NOTHING_TO_PICK = 3;

const ttlFlag: OptionSpec = {
  type: 'string',
  value: '<seconds>',
  description: `length of the lease (default ${DEFAULT_CLAIM_SECONDS}, at most ${MAX_CLAIM_SECONDS})`,
};

function ttlOf(command: Command, parsed: Parsed): number | undefined {
  const text = str(parsed, 'ttl');
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (!/^\d+$/.test(text) || seconds < 1 || seconds > MAX_CLAIM_SECONDS)
    usage(command, `--ttl takes whole seconds from 1 to ${MAX_CLAIM_SECONDS}, not "${text}"`);
  return seconds;
}

const AGENT_DETAILS = [
  'The agent is --agent <name> or env KANBAN_AGENT (1 to 64 of A-Z a-z 0-9 . _ @ : / -). While its',
  "claim runs, other agents' changes to the card are refused; people's (no agent) go through.",
];

export const pickCommand: Command = {
  name: 'pick',
  summary: 'Claim the best ready card for your agent (exit 3 when there is none); prints it like show',
  details: [
    "Ready: not blocked, archived, deleted or claimed by anyone, in --status or else the board's",
    'pickFrom columns (.kanban.json), else every column before the in-progress one. Best: priority,',
    'then due date (none last), then board order. Two agents never pick the same card, whichever',
    'process or git worktree they run in.',
    ...AGENT_DETAILS,
  ],
  options: {
    label: { type: 'string', multiple: true, value: '<a,b>', description: 'only cards with every one of these labels' },
    status: { type: 'string', value: '<column>', description: 'only from this column' },
    assignee: { type: 'string', value: '<name>', description: 'only cards assigned to this name' },
    priority: { type: 'string', value: '<p>', description: 'only cards of this priority' },
    'move-to': { type: 'string', value: '<column>', description: 'move the picked card to this column' },
    ttl: ttlFlag,
  },
  writes: true,
  async run(ctx, parsed) {
    const chosen = labels(parsed);
    const body = {
      ...(chosen.length ? { labels: chosen } : {}),
      ...optional(parsed, { status: 'status', assignee: 'assignee', priority: 'priority', moveTo: 'move-to' }),
      ...ttlBody(pickCommand, parsed),
    };
    const answer = await ctx.call<Card>('POST', ctx.boardPath('/tasks/pick'), { body });
    if (answer.status === 204) throw new ExitWith(NOTHING_TO_PICK, 'nothing to pick: no ready, unclaimed card matches');
    await show(ctx, answer, () => cardDetails(ctx, answer.data));
  },
};

export const claimCommand: Command = {
  name: 'claim',
  summary: 'Claim a card for your agent, or renew your claim (--ttl seconds)',
  args: ID,
  details: AGENT_DETAILS,
  options: { ttl: ttlFlag },
  positionals: [1, 1],
  writes: true,
  async run(ctx, parsed) {
    const answer = await ctx.call<Card>('POST', ctx.boardPath(`/tasks/${enc(parsed.positionals[0])}/claim`), {
      body: ttlBody(claimCommand, parsed),
    });
    await show(ctx, answer, () => {
      const claim = answer.data.claim as { agent: string; until: string };
      return `claimed ${bold(ctx.output, plain(answer.data.id))} for ${plain(claim.agent)} until ${plain(claim.until)}`;
    });
  },
};

export const releaseCommand: Command = {
  name: 'release',
  summary: "Release a card's claim: yours, or as a person any; --force for another agent's (logged)",
  args: ID,
  details: AGENT_DETAILS,
  options: { force: { type: 'boolean', description: "release another agent's claim; the card's log records it" } },
  positionals: [1, 1],
  writes: true,
  async run(ctx, parsed) {
    const query = flag(parsed, 'force') ? { force: true } : undefined;
    const answer = await ctx.call<Card>('DELETE', ctx.boardPath(`/tasks/${enc(parsed.positionals[0])}/claim`), {
      query,
    });
    await show(ctx, answer, () => `released ${bold(ctx.output, plain(answer.data.id))}`);
  },
};

export const reportCommand: Command = {
  name: 'report',
  summary: `Report your agent's progress on a card: ${SESSION_STATES.join(', ')} (renews your claim; complete releases it)`,
  args: `${ID} <state>`,
  details: [
    'The card shows the session (who, state, note, link) until the agent reports again or a person',
    'clears it; it reads stale once the agent is silent longer than its lease. A change of state is',
    "written to the card's log.",
    ...AGENT_DETAILS,
  ],
  options: {
    note: {
      type: 'string',
      value: '<text>',
      description: 'what you are doing, or what you need (logged with a change of state)',
    },
    // Not --url: that is every command's server address.
    link: {
      type: 'string',
      value: '<url>',
      description: "a link to follow the work: a pull request, a CI run (the session's url)",
    },
    ttl: ttlFlag,
  },
  positionals: [2, 2],
  writes: true,
  async run(ctx, parsed) {
    const [id, state] = parsed.positionals;
    if (!(SESSION_STATES as readonly string[]).includes(state))
      usage(reportCommand, `the state is one of ${SESSION_STATES.join(', ')}, not "${state}"`);
    const body = { state, ...optional(parsed, { note: 'note', url: 'link' }), ...ttlBody(reportCommand, parsed) };
    const answer = await ctx.call<Card>('PUT', ctx.boardPath(`/tasks/${enc(id)}/session`), { body });
    await show(ctx, answer, () => {
      const session = answer.data.session as { agent: string; state: string };
      const claim = answer.data.claim as { until: string } | null;
      const held = claim ? `, claimed until ${plain(claim.until)}` : ', claim released';
      return `${plain(session.agent)} reported ${bold(ctx.output, plain(session.state))} on ${bold(ctx.output, plain(answer.data.id))}${held}`;
    });
  },
};

export const agentCommands: Command[] = [pickCommand, claimCommand, releaseCommand, reportCommand];

function ttlBody(command: Command, parsed: Parsed): { ttlSeconds?: number } {
  const ttl = ttlOf(command, parsed);
  return ttl === undefined ? {} : { ttlSeconds: ttl };
}

/** Body fields from string flags, leaving out those not given. */
function optional(parsed: Parsed, names: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, name] of Object.entries(names)) {
    const value = str(parsed, name);
    if (value !== undefined) out[field] = value;
  }
  return out;
}
