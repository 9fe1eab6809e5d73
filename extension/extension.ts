import * as vscode from 'vscode';
import { inspect } from 'node:util';
import { log as serviceLog, setLogSink } from '../server/core/log';
import { FolderAccess } from './auth/folderAccess';
import { TokenStore } from './auth/tokenStore';
import { registerCardFileEditing } from './cards/cardFileEditing';
import { CardStatusBar } from './cards/cardStatusBar';
import { FollowMovedCards } from './cards/followMovedCards';
import { AgentsStatusBar } from './cards/agentsStatusBar';
import { AwaitingInputNotices } from './cards/awaitingInputNotices';
import { OverdueStatusBar } from './cards/overdueStatusBar';
import { registerCommands } from './commands/registerCommands';
import { BranchCardStatusBar } from './code/branchCardStatusBar';
import { registerCodeAndCards } from './code/registerCodeAndCards';
import { copyCardUri, registerCardUriHandler } from './cards/cardLinks';
import { ChosenBoards } from './commands/chosenBoards';
import { currentBoardId } from './commands/pickService';
import { BoardTree } from './sidebar/boardTree';
import { registerSidebarCommands } from './sidebar/sidebarCommands';
import { registerMcpServer } from './mcpRegistration';
import { registerChatParticipant } from './agent/chatParticipant';
import { registerCopyMcpConfiguration } from './agent/copyMcpConfiguration';
import { registerLanguageModelTools } from './agent/languageModelTools';
import type { ExtensionParts } from './parts';
import { ApiServer } from './server/apiServer';
import { mcpOverHttp } from './server/mcpOverHttp';
import { ServerControl } from './server/serverControl';
import { FolderServices, type FolderRef } from './service/folderServices';
import { readSettings, SETTINGS_SECTION, type KanbanSettings } from './settings';
import { onTrustGranted, whenTrusted, workspaceTrusted } from './trust';
import { BoardPresence } from './ui/boardPresence';
import { BrokenFiles } from './ui/brokenFiles';
import { affectsDisplay, readDisplay, saveDisplayForMe } from './ui/displaySettings';
import { Folders } from './ui/folders';
import { commentAuthor } from './ui/identity';
import type { BridgeHost } from './webview/bridgeHost';
import { ServerStatusBar } from './ui/statusBar';
import { BoardPanels } from './webview/boardPanels';

/**
 * How long after activation the first board is read (the status bar's overdue count) and its card
 * list built: activate() itself stays cheap, and the next turn starts the read, so a board opened
 * in the first seconds finds the cards read or on the way. Waiting 3 s made the first Open Board
 * over 10,000 cards read them inside the command: 1,035 ms palette to drawn, 654 ms once read.
 */
const WARM_UP_MS = 0;
/** Above this many cards the warm-up only reads them; the list is built when a panel opens. */
const PREBUILT_LIST_MAX_CARDS = 20_000;

/** Everything activate() started, closed in order by deactivate(). */
let running: { parts: ExtensionParts; disposables: vscode.Disposable[] } | null = null;
/** Settings problems already reported, so one typo is not repeated on every read. */
const reported = new Set<string>();

function settingsFor(folder?: FolderRef): KanbanSettings {
  const uri = folder ? vscode.Uri.parse(folder.key) : undefined;
  const { settings, problems } = readSettings(vscode.workspace.getConfiguration(SETTINGS_SECTION, uri));
  for (const problem of problems.filter((p) => !reported.has(p))) {
    reported.add(problem);
    void vscode.window.showWarningMessage(`Kanban: ${problem}`);
  }
  return settings;
}

/**
 * Activation is cheap on purpose: commands, views and the status bar are registered, and no card is
 * read until a board, a command or the API server needs the folder's service.
 */
export function activate(context: vscode.ExtensionContext): ExtensionParts {
  const started = performance.now();
  const output = vscode.window.createOutputChannel('Kanban');
  const log = (line: string) => {
    // The editor also keeps this channel in its logs folder, where the e2e measurements read it.
    output.appendLine(`[${new Date().toISOString()}] ${line}`);
  };
  // The service's own warnings (broken files, refused writes, failed deliveries) belong here too:
  // console output of an extension host reaches no user.
  const stopLogging = setLogSink((level, message, detail) => {
    const text = message.replace(/^kanban: /, '');
    log(
      `${level === 'info' ? '' : `[${level}] `}${text}${detail === undefined ? '' : ` ${detail instanceof Error ? (detail.stack ?? detail.message) : inspect(detail)}`}`,
    );
  });
  const brokenFiles = new BrokenFiles();
  const folders = new Folders(settingsFor);
  const followMoves = new FollowMovedCards();
  // Its source reads the parts built below, and only once a board has been read.
  const overdue = new OverdueStatusBar({
    folder: () => folders.primary(),
    boardId: (folder, service) => currentBoardId(parts, { folder, service, access }),
    person: (folder) => host.identity(folder),
  });
  const agents = new AgentsStatusBar(() => folders.primary());
  const branchCard = new BranchCardStatusBar(() => folders.primary());
  const notices = new AwaitingInputNotices({
    primary: () => folders.primary(),
    person: (folder) => host.identity(folder),
    open: (folder, boardId, taskId) => {
      parts.currentBoard.set(folder.key, boardId);
      parts.panels.open(folder, { type: 'openTask', boardId, taskId });
    },
  });
  /** Everything that follows the primary folder's service and its events. */
  const followers = [overdue, agents, notices, branchCard];
  const services = new FolderServices(
    (folder) => folders.rootOf(folder),
    (folder, service, ms) => {
      const cards = service.workspace.index.allCards().length;
      const heapMb = (process.memoryUsage().heapUsed / 1048576).toFixed(1);
      log(
        `opened the board of ${folder.name} (${service.root}): ${cards} card(s) in ${ms} ms; extension host heap ${heapMb} MB`,
      );
      brokenFiles.follow(folder, service);
      followMoves.follow(folder, service);
      for (const follower of followers) follower.follow(folder, service);
    },
    (folder, root, error) => {
      log(`[error] cannot open the board of ${folder.name} (${root}): ${(error as Error).message}`);
      brokenFiles.openFailed(folder, root, error);
    },
    () => !workspaceTrusted(),
  );
  const authors = new Map<string, Promise<string>>();
  const host: BridgeHost = {
    brokenFiles,
    display: (folder) => readDisplay(folder),
    onDisplayChange: (listener) =>
      vscode.workspace.onDidChangeConfiguration((change) => affectsDisplay(change) && listener()),
    saveDisplay: saveDisplayForMe,
    identity: (folder) => {
      if (!authors.has(folder.key)) authors.set(folder.key, commentAuthor(folder.fsPath));
      return authors.get(folder.key)!;
    },
    boardShown: (folder, boardId) => {
      parts.currentBoard.set(folder.key, boardId);
      panels.retitle(folder);
    },
    copyCardLink: (folder, boardId, taskId) => copyCardUri(parts, folder, boardId, taskId),
  };
  const control = new ServerControl(new ApiServer(), services, folders, settingsFor);
  const tokens = new TokenStore(context.secrets);
  const access = new FolderAccess(tokens);
  const overHttp = mcpOverHttp(control.server, tokens);
  // The board each folder shows: the panel, the sidebar, the status bar and the commands all follow it.
  const currentBoard = new ChosenBoards();
  const panels = new BoardPanels(context, services, (key) => folders.byKey(key), access, host, currentBoard);
  const parts: ExtensionParts = {
    context,
    folders,
    services,
    panels,
    control,
    settingsFor,
    access,
    log,
    currentBoard,
    presence: new BoardPresence(),
    overdue,
    agents,
  };
  const cardStatus = new CardStatusBar({ folders, services, access });
  const statusBar = new ServerStatusBar();
  const sidebar = new BoardTree(parts);
  const stopStatus = control.server.onDidChange((state) => statusBar.show(state));
  const stopFollowing = services.onDidReplace((folder, service) => {
    void control.serviceReplaced(folder, service);
    if (service) {
      brokenFiles.follow(folder, service);
      followMoves.follow(folder, service);
    } else {
      brokenFiles.forget(folder);
      followMoves.forget(folder);
    }
    for (const follower of followers) follower.follow(folder, service);
  });
  const warmUp = setTimeout(() => {
    const folder = folders.primary();
    if (folder && folders.hasKanban(folder)) panels.prepare(folder, PREBUILT_LIST_MAX_CARDS);
  }, WARM_UP_MS);
  let lastSettings = settingsFor(folders.primary());

  const disposables: vscode.Disposable[] = [
    output,
    { dispose: stopLogging },
    brokenFiles,
    tokens,
    ...registerCommands(parts),
    registerCardUriHandler(parts),
    panels,
    parts.presence,
    statusBar,
    { dispose: () => clearTimeout(warmUp) },
    followMoves,
    overdue,
    agents,
    notices,
    cardStatus,
    ...registerCardFileEditing({ folders, services, access }, brokenFiles),
    ...registerCodeAndCards(parts, branchCard),
    sidebar,
    ...registerSidebarCommands(parts, sidebar),
    parts.currentBoard.onDidChange(() => {
      sidebar.refresh();
      void overdue.refreshNow();
    }),
    // An agent's tools write: none are offered for a folder not trusted yet.
    whenTrusted(() => registerMcpServer(context, folders, overHttp)),
    ...registerLanguageModelTools(parts),
    ...registerChatParticipant(parts),
    registerCopyMcpConfiguration(parts, overHttp),
    onTrustGranted(() => {
      log('the workspace is trusted now: the board can be changed');
      void services.refresh().then(() => control.autoStart());
    }),
    { dispose: stopStatus },
    { dispose: stopFollowing },
    vscode.workspace.onDidChangeConfiguration((change) => {
      if (!change.affectsConfiguration(SETTINGS_SECTION)) return;
      const next = settingsFor(folders.primary());
      const previous = lastSettings;
      lastSettings = next;
      // `kanban.location` may point at another folder, with or without a board.
      parts.presence.changed();
      void services.refresh().then(() => control.settingsChanged(previous, next));
    }),
    vscode.workspace.onDidChangeWorkspaceFolders((change) => {
      for (const removed of change.removed) void services.close(removed.uri.toString());
    }),
  ];
  running = { parts, disposables };
  if (!workspaceTrusted()) log('Restricted Mode: the board is read-only, with no API server and no MCP server');
  void control.autoStart();
  log(`activated in ${(performance.now() - started).toFixed(1)} ms`);
  return parts;
}

/** Closes panels, the HTTP server (freeing its port), watchers and stores, and waits for them. */
export async function deactivate(): Promise<void> {
  const current = running;
  running = null;
  if (!current) return;
  for (const disposable of current.disposables.reverse()) {
    try {
      disposable.dispose();
    } catch (error) {
      serviceLog.error('kanban: dispose failed:', error);
    }
  }
  await current.parts.control.server.stop().catch(() => undefined);
  await current.parts.services.dispose();
}
