import type { BoardContext, ContextCard } from './boardContext';

/**
 * The board context as short Markdown, one line a card: what `kanban context` prints, what it keeps
 * in a file, and what the MCP context resource answers. Without `now` it leaves out the time left
 * on each claim, so a file kept up to date changes only when the board does, not every minute.
 */

export interface ContextTextOptions {
  /** The time (ms since the epoch) to count claims' time left from; absent in files. */
  now?: number;
}

const NOTE_LENGTH = 120;

export function contextMarkdown(context: BoardContext, options: ContextTextOptions = {}): string {
  const { counts } = context;
  // Blank lines between the sections: rendered Markdown would run a heading line into the list above it.
  return [
    `## Board ${context.board.name} (\`${context.board.id}\`)`,
    section('In progress', context.inProgress, counts.inProgress, options),
    section('Awaiting input', context.awaitingInput, counts.awaitingInput, options),
    section('Blocked', context.blocked, counts.blocked, options),
    section('Next to pick', context.next, counts.pickable, options),
  ].join('\n\n');
}

function section(title: string, cards: ContextCard[], total: number, options: ContextTextOptions): string {
  if (total === 0) return `${title}: none`;
  const shown = cards.length < total ? `${cards.length} of ${total}` : String(total);
  return [`${title} (${shown}):`, ...cards.map((card) => cardLine(card, options))].join('\n');
}

function cardLine(card: ContextCard, options: ContextTextOptions): string {
  const facts = [
    card.status,
    card.priority,
    card.dueDate ? `due ${card.dueDate.slice(0, 10)}` : '',
    card.assignee ? `@${card.assignee}` : '',
  ];
  const notes = [
    claimText(card, options),
    sessionText(card),
    card.waitsFor?.length ? `waits for ${card.waitsFor.map((id) => `\`${id}\``).join(', ')}` : '',
  ];
  const said = notes.filter(Boolean).join('; ');
  return `- \`${card.id}\` ${oneLine(card.title)} (${facts.filter(Boolean).join(', ')})${said ? `: ${said}` : ''}`;
}

function claimText(card: ContextCard, options: ContextTextOptions): string {
  if (!card.claim) return '';
  const left = options.now === undefined ? '' : `, ${timeLeft(Date.parse(card.claim.until) - options.now)} left`;
  return `claimed by ${card.claim.agent}${left}`;
}

function sessionText(card: ContextCard): string {
  const session = card.session;
  if (!session) return '';
  // The holder's own report needs no name again.
  const who = card.claim?.agent === session.agent ? '' : `${session.agent} `;
  const note = session.note ? ` "${oneLine(session.note, NOTE_LENGTH)}"` : '';
  return `${who}${session.state}${session.stale ? ' (stale)' : ''}${note}`;
}

/** `<1m`, `12m`, `2h05m`. */
export function timeLeft(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return '<1m';
  if (minutes < 60) return `${minutes}m`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

function oneLine(text: string, max = Infinity): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
