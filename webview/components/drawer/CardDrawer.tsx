import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { canOpenCardFile, openCardFile } from '../../cardLinks';
import { useAppState, useController } from '../../context';
import { fileNameOf } from '../../format';
import {
  CHANGED_ELSEWHERE,
  saveFromDrawer,
  titleFromContent,
  uploadFiles,
  type CardVersion,
  type DrawerSave,
} from '../../state/drawerActions';
import { saveBlockers } from '../../state/blockerActions';
import { keptDraft } from '../../state/keptDrafts';
import { onCardChange } from '../../state/liveEvents';
import type { TaskView, WorkspaceForm } from '../../types';
import { Icon } from '../Icon';
import { Sheet } from '../Sheet';
import { useInTurn } from '../useInTurn';
import { ActionsSection } from './ActionsSection';
import { AgentSection } from './AgentSection';
import { AttachmentsSection } from './AttachmentsSection';
import { ChecklistSection } from './ChecklistSection';
import { CommentsSection } from './CommentsSection';
import { DependenciesSection } from './DependenciesSection';
import { RelationsSection } from './RelationsSection';
import { SubCardsSection } from './SubCardsSection';
import { ContentSection } from './ContentSection';
import { DeleteSection } from './DeleteSection';
import { FieldsSection } from './FieldsSection';
import { FormsSection } from './FormsSection';
import { GitSection } from './GitSection';
import { LogsSection } from './LogsSection';
import { MetadataSection } from './MetadataEditor';

/**
 * The full card, fetched on open (lists carry no comments) and fetched again whenever the card
 * changes anywhere: this drawer, another client, the API or a hand edit of its file. The version
 * (ETag) of each read and of each save's answer is kept, so drawer saves can send If-Match.
 */
function useCardDetail(taskId: string): {
  task: TaskView | null;
  etag?: string;
  version: number;
  /** The newest change came from outside the service: the card's file was edited on disk. */
  changedOnDisk: boolean;
  /** The card is gone (its file deleted) while the drawer holds unsaved text for it. */
  gone: boolean;
  accept(task: TaskView, etag?: string): void;
  reload(): void;
} {
  const ctrl = useController();
  const [card, setCard] = useState<CardVersion | null>(null);
  const [version, setVersion] = useState(0);
  const [changedOnDisk, setChangedOnDisk] = useState(false);
  const [gone, setGone] = useState(false);
  const generation = useRef(0);
  // A save's answer can land after a newer live change was read: it never steps back. A read is
  // always shown (the newest read wins): a file put back to an older version on disk (git checkout,
  // an editor's undo) carries an older `modified`, and is still what is on disk.
  const show = (fresh: TaskView, etag: string | undefined, read: boolean) =>
    setCard((old) =>
      !read && old && old.task.modified > fresh.modified
        ? old
        : { task: { ...fresh, comments: fresh.comments ?? old?.task.comments }, etag },
    );

  async function reload() {
    const mine = ++generation.current;
    const boardId = ctrl.state.boardId;
    if (!boardId) return;
    try {
      const { data: fresh, etag } = await ctrl.api.getTaskVersioned(boardId, taskId);
      if (mine !== generation.current) return;
      show(fresh, etag, true);
      // The file came back (a git checkout undone, a move seen as a delete then a create).
      setGone(false);
      // The board card's unread dot follows what this person has now seen.
      ctrl.store.set((s) =>
        s.tasks[taskId] && s.boardId === boardId
          ? { tasks: { ...s.tasks, [taskId]: { ...s.tasks[taskId], cardState: fresh.cardState } } }
          : {},
      );
    } catch (error) {
      if (mine !== generation.current) return;
      // Text typed and not saved keeps the drawer open on the card's last copy: it must not vanish with
      // the file (ContentSection offers to make a new card of it).
      if (error instanceof ApiError && error.status === 404 && keptDraft(ctrl, `${taskId}:content`)) setGone(true);
      else if (error instanceof ApiError && error.status === 404) {
        ctrl.toast('info', 'The card was deleted.');
        ctrl.store.set((s) => (s.openTaskId === taskId ? { openTaskId: null } : {}));
      } else ctrl.toast('error', (error as Error).message);
    }
  }

  useEffect(() => {
    void reload();
    const boardId = ctrl.state.boardId;
    // Opening a card marks it opened and read for this person; a failure here must not get in the way.
    if (boardId) {
      void Promise.all([ctrl.api.markOpened(boardId, taskId), ctrl.api.markRead(boardId, taskId)])
        .then(() => reload())
        .catch(() => undefined);
    }
    return onCardChange((changed, _event, onDisk) => {
      if (changed !== taskId) return;
      setChangedOnDisk(onDisk);
      setVersion((v) => v + 1);
      void reload();
    });
  }, [taskId]);

  // An answer without a version (an upload, a form) is shown at once; a read fetches its version.
  function accept(task: TaskView, etag?: string) {
    show(task, etag, false);
    if (etag === undefined) void reload();
  }

  return {
    task: card?.task ?? null,
    etag: card?.etag,
    version,
    changedOnDisk,
    gone,
    accept,
    reload: () => void reload(),
  };
}

/** A field change the server refused because the card changed meanwhile, and what it would have set. */
interface FieldConflict {
  patch: Record<string, unknown>;
  etag?: string;
}

/** Files dropped anywhere on the drawer are uploaded to the card. */
function useFileDrop(anchor: HTMLElement | null, onFiles: (files: File[]) => void): boolean {
  const [over, setOver] = useState(false);
  const handler = useRef(onFiles);
  handler.current = onFiles;
  useEffect(() => {
    const sheet = anchor?.closest<HTMLElement>('.sheet');
    if (!sheet) return;
    const carriesFiles = (e: DragEvent) => Boolean(e.dataTransfer?.types.includes('Files'));
    const onOver = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      setOver(true);
    };
    const onLeave = (e: DragEvent) => {
      if (!sheet.contains(e.relatedTarget as Node | null)) setOver(false);
    };
    const onDrop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      setOver(false);
      handler.current(Array.from(e.dataTransfer?.files ?? []));
    };
    sheet.addEventListener('dragover', onOver);
    sheet.addEventListener('dragleave', onLeave);
    sheet.addEventListener('drop', onDrop);
    return () => {
      sheet.removeEventListener('dragover', onOver);
      sheet.removeEventListener('dragleave', onLeave);
      sheet.removeEventListener('drop', onDrop);
    };
  }, [anchor]);
  return over;
}

function useWorkspaceForms(task: TaskView | null): Record<string, WorkspaceForm> {
  const ctrl = useController();
  const [forms, setForms] = useState<Record<string, WorkspaceForm>>({});
  const needed = Boolean(task?.forms.some((f) => !('schema' in f && f.schema)));
  useEffect(() => {
    if (needed) void ctrl.api.listForms().then(setForms, () => undefined);
  }, [needed]);
  return forms;
}

/** Escape in a text box with text only leaves the box, so a half-written comment is not lost; the next Escape closes. */
function leaveTextBoxFirst(event: KeyboardEvent): void {
  const target = event.target as HTMLTextAreaElement;
  if (event.key !== 'Escape' || target.tagName !== 'TEXTAREA' || target.value === '') return;
  event.stopPropagation();
  target.blur();
}

export function CardDrawer({ taskId }: { taskId: string }) {
  const ctrl = useController();
  const { board, labels, tasks } = useAppState();
  const { task: detail, etag, version, changedOnDisk, gone, accept, reload } = useCardDetail(taskId);
  const [draft, setDraft] = useState<string | null>(null);
  const [fieldConflict, setFieldConflict] = useState<FieldConflict | null>(null);
  const [anchor, setAnchor] = useState<HTMLDivElement | null>(null);
  // The drawer's saves in order, and the version the next one builds on (see saveFields).
  const inTurn = useInTurn();
  const shownEtag = useRef(etag);
  useEffect(() => {
    shownEtag.current = etag;
  }, [etag]);
  // Until the full card arrives, the list's copy draws the drawer.
  const task = detail ?? tasks[taskId] ?? null;
  const workspaceForms = useWorkspaceForms(task);
  const dropping = useFileDrop(anchor, (files) => {
    if (task) void uploadFiles(ctrl, task, files).then((saved) => saved && accept(saved));
  });
  const close = () => ctrl.store.set({ openTaskId: null });
  // The card is gone and its unsaved text was discarded: nothing is left to show.
  useEffect(() => {
    if (gone && draft === null) {
      ctrl.toast('info', 'The card was deleted.');
      close();
    }
  }, [gone, draft]);

  /**
   * Field and metadata changes: only onto the version shown (If-Match); a 412 shows the newer one and
   * asks. Saves go one after another, each onto the version the one before it made: a quick second
   * edit sent with the version its own first edit replaced would be refused as a change from
   * elsewhere. An explicit `ifMatch` (saving again after a conflict) is kept.
   */
  function saveFields(patch: Record<string, unknown>, ifMatch?: string): Promise<TaskView | undefined> {
    return inTurn(async () =>
      applySave(await saveFromDrawer(ctrl, taskId, patch, ifMatch ?? shownEtag.current), patch),
    );
  }

  function applySave(result: DrawerSave, patch: Record<string, unknown>): TaskView | undefined {
    if (result.kind === 'saved') {
      shownEtag.current = result.card.etag;
      setFieldConflict(null);
      accept(result.card.task, result.card.etag);
      return result.card.task;
    }
    if (result.kind === 'conflict') {
      accept(result.latest.task, result.latest.etag);
      setFieldConflict({ patch, etag: result.latest.etag });
    }
    return undefined;
  }

  if (!task || !board) return null;
  const title = (draft !== null ? titleFromContent(draft) : task.title) || task.id;
  const column = board.columns.find((c) => c.id === task.status);
  return (
    <Sheet title={title} onClose={close} wide class={`drawer${dropping ? ' is-dropping' : ''}`} testId="card-drawer">
      <div class="drawer-layout" ref={setAnchor} data-task-id={task.id} onKeyDown={leaveTextBoxFirst}>
        <div class="drawer-subtitle">
          <span class="drawer-status" style={{ borderColor: column?.color ?? '#9ca3af' }}>
            {column?.name ?? (task.status === 'deleted' ? 'Deleted' : task.status)}
          </span>
          {canOpenCardFile(ctrl, task) ? (
            <button
              type="button"
              class="drawer-file link-btn"
              title={`Open ${task.filePath} in an editor`}
              data-testid="drawer-open-file"
              onClick={() => openCardFile(ctrl, task)}
            >
              {fileNameOf(task.filePath, task.id)}
            </button>
          ) : (
            <span class="drawer-file" title={task.filePath ?? task.id}>
              {fileNameOf(task.filePath, task.id)}
            </span>
          )}
        </div>
        <div class="drawer-main">
          <ContentSection
            task={task}
            etag={etag}
            changedOnDisk={changedOnDisk}
            gone={gone}
            onSaved={accept}
            onDraftTitle={setDraft}
          />
          <ChecklistSection task={task} etag={etag} onSaved={accept} />
          <FormsSection task={task} workspaceForms={workspaceForms} />
          <CommentsSection task={task} onChanged={reload} />
          <LogsSection task={task} version={version} />
        </div>
        <aside class="drawer-side">
          {fieldConflict && (
            <div class="drawer-notice drawer-conflict" role="alert" data-testid="field-conflict">
              <Icon name="alert" size={14} />
              <span>{CHANGED_ELSEWHERE} Your change was not saved; the newer version is shown.</span>
              <button
                type="button"
                class="btn btn-sm"
                onClick={() => void saveFields(fieldConflict.patch, fieldConflict.etag)}
              >
                Overwrite with mine
              </button>
              <button type="button" class="btn btn-sm btn-ghost" onClick={() => setFieldConflict(null)}>
                Discard mine
              </button>
            </div>
          )}
          <AgentSection task={task} onSaved={accept} />
          <FieldsSection task={task} board={board} labels={labels} save={saveFields} />
          <DependenciesSection
            task={task}
            save={(blockedBy) =>
              inTurn(async () => {
                const result = await saveBlockers(ctrl, taskId, blockedBy, shownEtag.current);
                if (result.kind === 'refused') return result.message;
                applySave(result, { blockedBy });
                return null;
              })
            }
          />
          <RelationsSection task={task} />
          <SubCardsSection task={task} />
          <GitSection task={task} version={version} />
          <MetadataSection task={task} save={saveFields} />
          <AttachmentsSection task={task} onSaved={accept} />
          <ActionsSection task={task} />
          <DeleteSection task={task} board={board} />
        </aside>
        {dropping && <div class="drawer-drop-hint">Drop files to attach them to this card</div>}
      </div>
    </Sheet>
  );
}
