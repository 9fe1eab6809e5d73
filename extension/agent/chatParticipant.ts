import * as vscode from 'vscode';
import { boardContext } from '../../server/mcp/boardContextText';
import { composeContent } from '../../server/mcp/cardText';
import { callApi, onBoard, queryString } from '../../server/mcp/tool';
import type { ApiClient } from '../../server/client/apiClient';
import type { ExtensionParts } from '../parts';
import { OPEN_ON_BOARD_COMMAND } from '../sidebar/boardTreeItems';
import { commentAuthor } from '../ui/identity';
import { agentTarget, CHAT_AGENT, folderApiClient, type AgentTarget } from './agentTarget';
import { planTitles } from './planTitles';

/** The id in package.json `contributes.chatParticipants`; people call it `@kanban`. */
export const CHAT_PARTICIPANT_ID = 'kanban.chat';

/** Buttons under an answer, at most: the rest of the cards are in the list above them. */
const MAX_BUTTONS = 5;

interface CardLine {
  id: string;
  boardId?: string;
  title: string;
  status: string;
  priority?: string;
  assignee?: string | null;
}

type Command = 'next' | 'mine' | 'plan';

/** The slash command, else what the words ask for; "what should I pick up?" when they say nothing clear. */
export function commandOf(request: { command?: string; prompt: string }): Command {
  if (request.command === 'next' || request.command === 'mine' || request.command === 'plan') return request.command;
  const prompt = request.prompt.toLowerCase();
  if (/\bplan\b|into cards|\bcreate\b/.test(prompt)) return 'plan';
  if (/waiting|\bmine\b|\bmy\b|assigned|for me/.test(prompt)) return 'mine';
  return 'next';
}

function showCards(stream: vscode.ChatResponseStream, target: AgentTarget, cards: CardLine[]): void {
  stream.markdown(
    cards
      .map((card) => `- **${card.title}** \`${card.id}\` (${card.status}${card.priority ? `, ${card.priority}` : ''})`)
      .join('\n') + '\n',
  );
  for (const card of cards.slice(0, MAX_BUTTONS))
    stream.button({
      title: `Open "${card.title}"`,
      command: OPEN_ON_BOARD_COMMAND,
      arguments: [{ folderKey: target.folder.key, boardId: card.boardId ?? target.boardId, taskId: card.id }],
    });
}

async function answerNext(stream: vscode.ChatResponseStream, target: AgentTarget, client: ApiClient) {
  const { data } = await boardContext(client, target.boardId);
  if (!data.next.length) {
    stream.markdown(`No card of **${data.board.name}** is ready to pick: every open card is claimed, blocked or done.`);
    return;
  }
  stream.markdown(`Ready on **${data.board.name}**, best first (the order pick hands them out):\n\n`);
  showCards(stream, target, data.next);
}

async function answerMine(stream: vscode.ChatResponseStream, target: AgentTarget, client: ApiClient) {
  const me = await commentAuthor(target.folder.fsPath);
  const { data } = await boardContext(client, target.boardId);
  const lastColumn = target.service.workspace.config.boards.find((b) => b.id === target.boardId)?.columns.at(-1)?.id;
  const listed = async (filter: Record<string, string>) =>
    (
      (await callApi(client, { method: 'get', path: onBoard(target.boardId, '/tasks') + queryString(filter) }))
        .data as CardLine[]
    ).filter((card) => card.status !== lastColumn);
  const sections: [string, CardLine[]][] = [
    ['An agent waits for your answer on', data.awaitingInput],
    [`Assigned to ${me}`, await listed({ assignee: me })],
    [`Claimed by this chat (${CHAT_AGENT})`, await listed({ claimedBy: CHAT_AGENT })],
  ];
  const shown = sections.filter(([, cards]) => cards.length);
  if (!shown.length) {
    stream.markdown(`Nothing on **${data.board.name}** waits for ${me}: no card assigned, claimed or awaiting input.`);
    return;
  }
  for (const [heading, cards] of shown) {
    stream.markdown(`**${heading}:**\n\n`);
    showCards(stream, target, cards);
  }
}

/** Titles from the request's model when there is one (a title a line), else from the plan's lines. */
async function titlesOf(request: vscode.ChatRequest, token: vscode.CancellationToken): Promise<string[]> {
  // Undefined in editors before 1.95 and in callers that are not the chat view.
  const model = (request as { model?: vscode.LanguageModelChat }).model;
  if (!model) return planTitles(request.prompt);
  try {
    const asked = vscode.LanguageModelChatMessage.User(
      `Split this plan into kanban card titles, one short imperative title per line, nothing else:\n\n${request.prompt}`,
    );
    const answer = await model.sendRequest([asked], {}, token);
    let text = '';
    for await (const part of answer.text) text += part;
    const titles = planTitles(text);
    return titles.length ? titles : planTitles(request.prompt);
  } catch {
    // No consent, no quota, an offline model: the plan's own lines still make cards.
    return planTitles(request.prompt);
  }
}

async function answerPlan(
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  target: AgentTarget,
  client: ApiClient,
  token: vscode.CancellationToken,
) {
  const titles = await titlesOf(request, token);
  if (!titles.length) {
    stream.markdown('Write the plan after `/plan`, a step a line, and each step becomes a card.');
    return;
  }
  stream.progress(`Creating ${titles.length} card(s)…`);
  const made: CardLine[] = [];
  for (const title of titles) {
    const { data } = await callApi(client, {
      method: 'post',
      path: onBoard(target.boardId, '/tasks'),
      body: { content: composeContent(title) },
    });
    made.push(data as CardLine);
  }
  stream.markdown(`Created ${made.length} card(s):\n\n`);
  showCards(stream, target, made);
}

export function chatHandler(parts: ExtensionParts): vscode.ChatRequestHandler {
  return async (request, _context, stream, token) => {
    try {
      const target = await agentTarget(parts);
      const client = folderApiClient(target);
      const command = commandOf(request);
      if (command === 'plan') await answerPlan(request, stream, target, client, token);
      else if (command === 'mine') await answerMine(stream, target, client);
      else await answerNext(stream, target, client);
    } catch (error) {
      stream.markdown(`Kanban: ${(error as Error).message}`);
    }
    return {};
  };
}

/** `@kanban` in the chat view; in an editor without the chat API, a log line says why it is missing. */
export function registerChatParticipant(parts: ExtensionParts): vscode.Disposable[] {
  if (typeof vscode.chat?.createChatParticipant !== 'function') {
    parts.log('this editor has no chat participant API: @kanban is not offered');
    return [];
  }
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, chatHandler(parts));
  participant.iconPath = vscode.Uri.joinPath(parts.context.extensionUri, 'extension', 'media', 'icon.png');
  return [participant];
}
