import { activateWith, deactivate, double, folderWithCardBodies, runCommand, waitFor } from './helpers/harness';
import { lm } from './helpers/vscodeDouble';
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { KanbanService } from '../../extension/service/kanbanService';
import { LANGUAGE_MODEL_TOOLS, manifestSchemaOf } from '../../extension/agent/languageModelTools';
import { CHAT_PARTICIPANT_ID } from '../../extension/agent/chatParticipant';
import { repoRoot } from './helpers/harness';

type Card = { id: string; title: string; status: string; filePath?: string; checklistItems?: { done: boolean }[] };

const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { languageModelTools: { name: string; inputSchema: unknown }[]; chatParticipants: { id: string }[] };
};

/** The board's cards as its files say, read by a fresh service (not the extension's). */
async function cardsOnDisk(folder: string): Promise<Card[]> {
  const service = await KanbanService.open(folder);
  try {
    const answer = await service.dispatcher.dispatch({ method: 'GET', path: '/tasks?limit=100' });
    return (answer.body as { data: Card[] }).data;
  } finally {
    await service.close();
  }
}

const invoke = async (name: string, input: object) =>
  (await lm.invokeTool(name, { input })).content.map((part) => part.value).join('');

/** A stream that keeps what the participant wrote and the buttons it offered. */
function chatStream() {
  const written = { markdown: '', buttons: [] as { title: string; command: string; arguments: unknown[] }[] };
  return {
    written,
    markdown: (text: string) => void (written.markdown += text),
    button: (button: { title: string; command: string; arguments: unknown[] }) => void written.buttons.push(button),
    progress: () => undefined,
  };
}

describe('extension: agent mode (language model tools, @kanban, MCP configuration)', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when the extension activates, then every tool package.json declares is registered, with the schema of its MCP tool', async () => {
    const folder = await folderWithCardBodies([]);
    activateWith([folder]);
    const declared = manifest.contributes.languageModelTools.map((tool) => tool.name).sort();
    assert.deepEqual(declared, [...double.lmTools.keys()].sort());
    assert.deepEqual(declared, Object.keys(LANGUAGE_MODEL_TOOLS).sort());
    for (const tool of manifest.contributes.languageModelTools)
      assert.deepEqual(tool.inputSchema, manifestSchemaOf(tool.name), `${tool.name}'s schema`);
    assert.deepEqual(
      manifest.contributes.chatParticipants.map((p) => p.id),
      [...double.chatParticipants.keys()],
    );
  });

  it('when a model lists, creates, picks, moves and ticks through the tools, then the board files change, with the chat as the agent', async () => {
    const folder = await folderWithCardBodies([
      { content: '# Ready one\n\n- [ ] first step\n', priority: 'high' },
      { content: '# Later one\n', priority: 'low' },
    ]);
    activateWith([folder]);
    const listed = JSON.parse(await invoke('kanban_list_cards', {})) as { cards: Card[] };
    assert.deepEqual(listed.cards.map((c) => c.title).sort(), ['Later one', 'Ready one']);

    const created = JSON.parse(await invoke('kanban_create_card', { title: 'Made by chat' })) as Card;
    assert.ok((await cardsOnDisk(folder)).some((c) => c.id === created.id && c.title === 'Made by chat'));

    const picked = JSON.parse(await invoke('kanban_pick_card', {})) as { picked: Card & { claim: { agent: string } } };
    assert.equal(picked.picked.title, 'Ready one');
    assert.equal(picked.picked.claim.agent, 'vscode-chat');

    await invoke('kanban_move_card', { id: picked.picked.id, status: 'in-progress' });
    await invoke('kanban_check_item', { id: picked.picked.id, index: 0 });
    const onDisk = (await cardsOnDisk(folder)).find((c) => c.id === picked.picked.id)!;
    assert.equal(onDisk.status, 'in-progress');
    const file = await fs.readFile(path.join(folder, onDisk.filePath!), 'utf8');
    assert.match(file, /- \[x\] first step/);
  });

  it('when a tool is about to write, then its confirmation names the card and the change; a read asks nothing', async () => {
    const folder = await folderWithCardBodies([{ content: '# Fix the login\n\n- [ ] reproduce\n' }]);
    activateWith([folder]);
    const [card] = await cardsOnDisk(folder);
    const prepare = (name: string, input: object) =>
      double.lmTools.get(name)!.prepareInvocation!({ input }, {}) as Promise<{
        confirmationMessages?: { title: string; message: string };
      }>;
    const move = await prepare('kanban_move_card', { id: card.id, status: 'done' });
    assert.match(move.confirmationMessages!.message, new RegExp(`Move card "Fix the login" \\(${card.id}\\) to done`));
    const tick = await prepare('kanban_check_item', { id: card.id.slice(0, 6), index: 0 });
    assert.match(tick.confirmationMessages!.message, /Tick item 0 "reproduce" of card "Fix the login"/);
    assert.equal((await prepare('kanban_get_card', { id: card.id })).confirmationMessages, undefined);
  });

  it('when someone asks @kanban what to pick up, then it answers the ready cards best first, with buttons that open them', async () => {
    const folder = await folderWithCardBodies([
      { content: '# Low thing\n', priority: 'low' },
      { content: '# Urgent thing\n', priority: 'critical' },
    ]);
    activateWith([folder]);
    const stream = chatStream();
    await double.chatParticipants
      .get(CHAT_PARTICIPANT_ID)!
      .handler({ prompt: 'what should I pick up?', command: undefined }, {}, stream, {});
    const { markdown, buttons } = stream.written;
    assert.ok(
      markdown.indexOf('Urgent thing') >= 0 && markdown.indexOf('Urgent thing') < markdown.indexOf('Low thing'),
      markdown,
    );
    assert.deepEqual(
      buttons.map((b) => [b.title, b.command]),
      [
        ['Open "Urgent thing"', 'kanban.sidebar.openCard'],
        ['Open "Low thing"', 'kanban.sidebar.openCard'],
      ],
    );
  });

  it('when someone asks @kanban what is waiting for them, then it answers the cards assigned to them, not the others', async () => {
    const folder = await folderWithCardBodies([
      { content: '# Review my PR\n', assignee: 'Ada Lovelace' },
      { content: '# Someone else\n', assignee: 'Grace Hopper' },
    ]);
    execFileSync('git', ['init', '-q'], { cwd: folder });
    execFileSync('git', ['config', 'user.name', 'Ada Lovelace'], { cwd: folder });
    activateWith([folder]);
    const stream = chatStream();
    await double.chatParticipants
      .get(CHAT_PARTICIPANT_ID)!
      .handler({ prompt: 'what is waiting for me?', command: undefined }, {}, stream, {});
    assert.match(stream.written.markdown, /Assigned to Ada Lovelace:[\s\S]*Review my PR/);
    assert.doesNotMatch(stream.written.markdown, /Someone else/);
  });

  it('when @kanban /plan gets a plan and no model, then each line becomes a card', async () => {
    const folder = await folderWithCardBodies([]);
    activateWith([folder]);
    const stream = chatStream();
    await double.chatParticipants
      .get(CHAT_PARTICIPANT_ID)!
      .handler({ prompt: '- Write the parser\n- [ ] Add tests\n\n1. Ship it', command: 'plan' }, {}, stream, {});
    assert.deepEqual((await cardsOnDisk(folder)).map((c) => c.title).sort(), [
      'Add tests',
      'Ship it',
      'Write the parser',
    ]);
  });

  it('when Copy MCP Configuration runs, then the clipboard holds JSON for the kanban command in this folder', async () => {
    const folder = await folderWithCardBodies([]);
    activateWith([folder]);
    await runCommand('kanban.copyMcpConfiguration');
    const config = JSON.parse(double.clipboard) as {
      mcpServers: Record<string, { command?: string; args?: string[] }>;
    };
    assert.equal(config.mcpServers.kanban.command, 'kanban');
    assert.deepEqual(config.mcpServers.kanban.args, ['mcp', '--dir', folder]);
    assert.equal(config.mcpServers['kanban-http'], undefined, 'no API server runs');
  });

  it('when the editor has no MCP server API, then the Kanban output channel says so', async () => {
    const folder = await folderWithCardBodies([]);
    const api = lm as { registerMcpServerDefinitionProvider?: unknown };
    const saved = api.registerMcpServerDefinitionProvider;
    delete api.registerMcpServerDefinitionProvider;
    try {
      activateWith([folder]);
      const channel = double.outputs.find((o) => o.name === 'Kanban')!;
      await waitFor(() => channel.lines.some((l) => l.includes('cannot register MCP servers')), 'the log line');
    } finally {
      api.registerMcpServerDefinitionProvider = saved;
    }
  });
});
