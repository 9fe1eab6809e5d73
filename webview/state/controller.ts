import { Api, ApiError } from '../api';
import type { EventMessage, HostNoticeMessage } from '../protocol';
import type { Transport } from '../transport';
import { showServerWarnings } from './wipNotice';
import { filterIsActive, type TaskFilter } from '../types';
import { keptViewOf, restoredParts, sameKeptView } from './keptView';
import { initialState, type AppState, type ThemeChoice, type Toast } from './appState';
import { installAuthPrompt } from './authPrompt';
import { applyEvent, type LiveBoard } from './liveEvents';
import { taskSetFrom } from './placement';
import { Store } from './store';
import { UndoStack } from './undoStack';

const TOAST_MS = 6000;
const HELLO_WAIT_MS = 1500;
/** The id a new workspace gives its first board: the guess when no board was asked for or shown before. */
const LIKELY_DEFAULT_BOARD = 'default';

/**
 * Owns the UI state and keeps it equal to the server's: loads a board, applies live events in
 * revision order, and re-fetches everything after a gap or a reconnect. It holds no rules of its
 * own; every change is a request whose answer (or refusal) the UI shows.
 */
export class BoardController implements LiveBoard {
  readonly store: Store<AppState>;
  readonly api: Api;
  private revision: number | null = null;
  private loadGeneration = 0;
  private filterGeneration = 0;
  private filterTimer: ReturnType<typeof setTimeout> | null = null;
  private filterInFlight = false;
  /** A newer filter came while a search was on its way: run again when it is answered. */
  private filterWaiting = false;
  private nextToastId = 1;
  /** Who wants to hear of a card an undo brought back (the board's kept focus, see keptFocus.ts). */
  private readonly undoneListeners = new Set<(cardId: string) => void>();
  private readonly undos = new UndoStack((step) => {
    if (step.cardId) for (const listener of this.undoneListeners) listener(step.cardId);
  });
  private fallbackLoad: ReturnType<typeof setTimeout> | null = null;
  private boardsTimer: ReturnType<typeof setTimeout> | null = null;
  private loadsInFlight = 0;
  private heldEvents: EventMessage[] = [];
  private persisted: Record<string, unknown>;
  private restored = false;
  /** Hands the token the user typed into the prompt back to the transport. */
  readonly auth: { submit(token: string): void };

  constructor(readonly transport: Transport) {
    this.api = new Api(transport);
    this.persisted = transport.loadState();
    const theme = (['light', 'dark'] as const).find((t) => t === this.persisted.theme) ?? 'auto';
    // Inside VS Code the board looks native (the editor's background) until the host says otherwise.
    this.store = new Store<AppState>({
      ...initialState(theme),
      display: transport.host === 'vscode' ? { background: 'native', preset: 'aurora' } : null,
    });
    this.auth = installAuthPrompt(transport, this.store);
    showServerWarnings(this);
    // In VS Code the page is the editor tab's state; a browser tab starts from the board itself.
    if (transport.host === 'vscode') this.keepViewAcrossReloads();
    else this.restored = true;
  }

  /**
   * The open card, the filter, the layout, the lanes, the order and the saved view survive a reload
   * of the page (a window reload, a restored panel): saved as they change, put back by the first
   * load. Nothing is saved before that restore, or the defaults the page starts with would
   * overwrite what the last page kept.
   */
  private keepViewAcrossReloads(): void {
    let last = keptViewOf(this.state);
    this.store.subscribe(() => {
      const state = this.store.get();
      if (!state.loaded || !this.restored) return;
      const now = keptViewOf(state);
      if (sameKeptView(now, last)) return;
      last = now;
      this.persist({ ...now });
    });
  }

  /** After the first load: what the page showed before it was reloaded, where still valid. */
  private restoreView(): void {
    if (this.restored) return;
    this.restored = true;
    const { patch, filter } = restoredParts(this.persisted, this.state);
    this.store.set(patch);
    if (filter) this.setFilter(filter);
  }

  get state(): AppState {
    return this.store.get();
  }

  /**
   * Connect first and load once the host says hello, so no change can fall between the load and the
   * start of the event stream. Without live updates (no hello in time) the board still loads.
   */
  start(): void {
    this.transport.onEvent((event) => this.receive(event));
    this.transport.onHostNotice?.((notice) => this.hostNotice(notice));
    this.transport.connect({
      state: (connection) => this.store.set({ connection }),
      hello: (revision) => this.hello(revision),
    });
    this.fallbackLoad = setTimeout(() => {
      this.fallbackLoad = null;
      void this.load();
    }, HELLO_WAIT_MS);
  }

  /** What the VS Code host tells the page: palette commands, broken files, display preferences. */
  private hostNotice(notice: HostNoticeMessage): void {
    switch (notice.type) {
      case 'showBoard':
        this.switchBoard(notice.boardId);
        return;
      case 'openTask':
        void this.openTask(notice.boardId, notice.taskId);
        return;
      case 'invalidFiles':
        this.store.set({ invalidFiles: notice.files });
        return;
      case 'display':
        this.store.set({ display: notice.display });
        return;
      case 'identity':
        this.store.set({ identity: notice.name });
        return;
      case 'readOnly':
        this.store.set({ readOnlyNotice: notice.notice });
        return;
    }
  }

  /** Show the card's board, then the card's details (Search Cards in the palette). */
  async openTask(boardId: string, taskId: string): Promise<void> {
    if (boardId !== this.state.boardId || !this.state.loaded) await this.load(boardId);
    if (this.state.boardId === boardId) this.store.set({ openTaskId: taskId, panel: null });
  }

  private hello(revision: number): void {
    // Marks of the first load's steps, for the benches (the VS Code start-up e2e reads them).
    performance.mark('kanban:hello');
    this.revision = revision;
    if (this.fallbackLoad) {
      clearTimeout(this.fallbackLoad);
      this.fallbackLoad = null;
    }
    // Every hello after the first follows a dropped connection, during which events may have been
    // missed: re-fetch everything.
    void this.load(this.state.boardId ?? undefined);
  }

  private receive(event: EventMessage): void {
    const expected = this.revision === null ? event.revision : this.revision + 1;
    this.revision = event.revision;
    if (event.revision !== expected) {
      void this.load(this.state.boardId ?? undefined);
      return;
    }
    // A load in flight may answer with data older than this event: hold it and replay it on top.
    if (this.loadsInFlight > 0) this.heldEvents.push(event);
    else void applyEvent(this, event);
  }

  /** Load (or reload) everything shown: boards, settings, labels, the board and its cards. */
  async load(requestedBoardId?: string): Promise<void> {
    const generation = ++this.loadGeneration;
    this.loadsInFlight++;
    try {
      const wanted = requestedBoardId ?? (this.persisted.boardId as string | undefined);
      // The likely board's cards are asked for with the board list, not after it: at 10,000 cards
      // the list answer is the longest wait of a load, and this saves a round trip before it. A
      // wrong guess is dropped and the right board asked for.
      const guess = wanted ?? LIKELY_DEFAULT_BOARD;
      const early = Promise.all([this.api.getBoard(guess), this.api.listTasks(guess)]).catch(() => null);
      const [boards, settings, labels] = await Promise.all([
        this.api.listBoards(),
        this.api.getSettings(),
        this.api.getLabels(),
      ]);
      const boardId = boards.find((b) => b.id === wanted)?.id ?? boards.find((b) => b.isDefault)?.id ?? boards[0]?.id;
      if (!boardId) throw new ApiError('The workspace has no board.', 404);
      const [board, tasks] =
        (boardId === guess && (await early)) ||
        (await Promise.all([this.api.getBoard(boardId), this.api.listTasks(boardId)]));
      if (generation !== this.loadGeneration) return;
      performance.mark('kanban:cards-arrived');
      const switching = boardId !== this.state.boardId;
      this.store.set({
        boards,
        settings,
        labels,
        board,
        boardId,
        ...taskSetFrom(tasks),
        loaded: true,
        loadError: null,
        ...(switching ? { openTaskId: null, quickAddStatus: null, selection: new Set<string>() } : {}),
      });
      performance.mark('kanban:cards-set');
      this.persist({ boardId });
      this.transport.notifyHost?.({ type: 'boardShown', boardId });
      // The VS Code host sends the broken files itself, as they change; a browser asks on each load.
      if (this.transport.host === 'browser') void this.refreshInvalidFiles();
      this.restoreView();
      if (filterIsActive(this.state.filter)) await this.runFilter();
    } catch (error) {
      if (generation !== this.loadGeneration) return;
      this.store.set({ loadError: messageOf(error) });
    } finally {
      this.loadsInFlight--;
      if (this.loadsInFlight === 0) {
        const held = this.heldEvents;
        this.heldEvents = [];
        for (const event of held) void applyEvent(this, event);
      }
    }
  }

  switchBoard(boardId: string): void {
    if (boardId === this.state.boardId) return;
    this.undos.clear();
    this.store.set({ matches: null, matchesFilter: null });
    void this.load(boardId);
  }

  async refreshBoard(): Promise<void> {
    const boardId = this.state.boardId;
    if (!boardId) return;
    try {
      const [board, boards] = await Promise.all([this.api.getBoard(boardId), this.api.listBoards()]);
      if (boardId === this.state.boardId) this.store.set({ board, boards });
    } catch (error) {
      // The board itself may be gone (deleted elsewhere): fall back to the default one.
      if (error instanceof ApiError && error.status === 404) void this.load();
    }
  }

  /** Board summaries carry card counts; many card changes in a burst need one re-fetch. */
  refreshBoardsSoon(): void {
    if (this.boardsTimer) return;
    this.boardsTimer = setTimeout(() => {
      this.boardsTimer = null;
      void this.refreshBoards();
    }, 300);
  }

  async refreshBoards(): Promise<void> {
    const boards = await this.api.listBoards().catch(() => null);
    if (boards) this.store.set({ boards });
  }

  async refreshTasks(): Promise<void> {
    const boardId = this.state.boardId;
    if (!boardId) return;
    const tasks = await this.api.listTasks(boardId).catch(() => null);
    if (tasks && boardId === this.state.boardId) this.store.set(taskSetFrom(tasks));
    this.scheduleFilter(0);
  }

  async refreshInvalidFiles(): Promise<void> {
    const workspace = await this.api.getWorkspace().catch(() => null);
    if (workspace) this.store.set({ invalidFiles: workspace.invalidFiles });
  }

  async refreshLabels(): Promise<void> {
    const labels = await this.api.getLabels().catch(() => null);
    if (labels) this.store.set({ labels });
  }

  async refreshSettings(): Promise<void> {
    const settings = await this.api.getSettings().catch(() => null);
    if (settings) this.store.set({ settings });
  }

  setFilter(patch: Partial<TaskFilter>): void {
    this.store.set((s) => ({ filter: { ...s.filter, ...patch } }));
    // No debounce: the user would wait through it on every keystroke. runFilter keeps typing from
    // piling up requests instead (one on its way at a time, then only the latest filter).
    this.scheduleFilter(0);
  }

  /** Re-run the filter soon (now, or after a short wait that gathers a burst of changes). */
  scheduleFilter(delay: number): void {
    if (!filterIsActive(this.state.filter)) {
      // An answer still on its way is for a filter no longer set: it must not come back.
      this.filterGeneration++;
      if (this.state.matches || this.state.matchesFilter) this.store.set({ matches: null, matchesFilter: null });
      return;
    }
    if (this.filterTimer) clearTimeout(this.filterTimer);
    this.filterTimer = setTimeout(() => void this.runFilter(), delay);
  }

  /**
   * Ask for the current filter's matches. While a request is on its way, a newer filter waits for
   * it and then runs once with whatever the filter is by then; the older answer is dropped.
   */
  private async runFilter(): Promise<void> {
    const generation = ++this.filterGeneration;
    if (this.filterInFlight) {
      this.filterWaiting = true;
      return;
    }
    this.filterInFlight = true;
    try {
      await this.fetchMatches(generation);
    } finally {
      this.filterInFlight = false;
    }
    if (this.filterWaiting) {
      this.filterWaiting = false;
      await this.runFilter();
    }
  }

  private async fetchMatches(generation: number): Promise<void> {
    const { boardId, filter } = this.state;
    if (!boardId) return;
    if (!filterIsActive(filter)) {
      this.store.set({ matches: null, matchesFilter: null });
      return;
    }
    try {
      const ids = await this.api.matchingIds(boardId, filter, this.state.settings.showDeletedColumn);
      if (generation === this.filterGeneration) this.store.set({ matches: new Set(ids), matchesFilter: filter });
    } catch (error) {
      if (generation === this.filterGeneration) {
        // The old matches stay; the search is over, and the toast says why it failed.
        this.store.set({ matchesFilter: filter });
        this.toast('error', messageOf(error));
      }
    }
  }

  toast(kind: Toast['kind'], text: string, action?: Toast['action']): number {
    const id = this.nextToastId++;
    this.store.set((s) => ({ toasts: [...s.toasts.slice(-3), { id, kind, text, action }] }));
    setTimeout(() => this.dismissToast(id), TOAST_MS);
    return id;
  }

  /**
   * A change that can be taken back: a message with Undo, and Ctrl+Z, take it back (the message only
   * while shown). `cardId` is the card it acted on, where focus goes once it is taken back.
   */
  offerUndo(text: string, run: () => void, cardId?: string): void {
    const id: number = this.toast('info', text, { label: 'Undo', run: () => this.undos.undoOffered(id) });
    this.undos.push({ run, toastId: id, cardId });
  }

  /** A change too small for a message (a move): Ctrl+Z still takes it back. */
  rememberUndo(run: () => void, cardId?: string): void {
    this.undos.push({ run, cardId });
  }

  /** Hear of each card an undo brings back; returns the way to stop. */
  onUndone(listener: (cardId: string) => void): () => void {
    this.undoneListeners.add(listener);
    return () => this.undoneListeners.delete(listener);
  }

  /** Ctrl+Z on the board: take back the newest change; false when there is none. */
  undo(): boolean {
    const step = this.undos.undoLast();
    if (step?.toastId !== undefined) this.dismissToast(step.toastId);
    return step !== undefined;
  }

  dismissToast(id: number): void {
    this.store.set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  }

  /** Run a request; a refusal becomes a visible message. Returns undefined when it failed. */
  async attempt<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      this.toast('error', messageOf(error));
      return undefined;
    }
  }

  setTheme(theme: ThemeChoice): void {
    this.store.set({ theme });
    this.persist({ theme });
  }

  /** A small UI preference kept across reloads (comment author, theme, last board). */
  preference(key: string): unknown {
    return this.persisted[key];
  }

  persist(patch: Record<string, unknown>): void {
    this.persisted = { ...this.persisted, ...patch };
    this.transport.saveState(this.persisted);
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
