import * as vscode from 'vscode';
import { titleOf } from '../../server/core/model';
import type { ExtensionParts } from '../parts';
import { timeLeft, type AgentCard } from './agentsAtWork';

const STATE_WORDS: Record<AgentCard['state'], string> = {
  awaitingInput: 'awaiting input',
  error: 'failed',
  active: 'working',
  claimed: 'claimed',
  complete: 'complete',
};

function describe(entry: AgentCard): string {
  const words = [entry.agent, STATE_WORDS[entry.state]];
  if (entry.stale) words.push('stale');
  if (entry.until) words.push(timeLeft(entry.until));
  return words.join(' · ');
}

/** Show Agents at Work: the cards agents hold or wait on, questions first; the one picked opens on the board. */
export async function showAgentsAtWork(parts: ExtensionParts): Promise<void> {
  parts.agents.refresh();
  const state = parts.agents.state;
  if (!state) {
    void vscode.window.showInformationMessage(
      'Kanban: no agent is at work on this board now (no claims, nothing awaiting input).',
    );
    return;
  }
  const picked = await vscode.window.showQuickPick(
    state.cards.map((entry) => ({
      label: titleOf(entry.card.content) || entry.card.id,
      description: describe(entry),
      detail: entry.note ?? entry.card.id,
      entry,
    })),
    {
      title: `Agents at work: ${state.agents.join(', ') || 'none holding a card'}`,
      placeHolder: 'Card to open on the board',
      matchOnDescription: true,
    },
  );
  if (!picked) return;
  const { card } = picked.entry;
  parts.currentBoard.set(state.folder.key, card.boardId);
  parts.panels.open(state.folder, { type: 'openTask', boardId: card.boardId, taskId: card.id });
}
