import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useController } from '../../context';
import { focusIsLost } from '../../focus';
import { bodyWithoutTitle, renderMarkdown } from '../../markdown';
import { withoutChecklistItems } from '../../../server/core/checklist';
import { copyText } from '../../cardLinks';
import { CHANGED_ELSEWHERE, recreateCard, saveFromDrawer, type CardVersion } from '../../state/drawerActions';
import { forgetSentDraft, keepDraft, keptDraft, useKeptDraft } from '../../state/keptDrafts';
import type { TaskView } from '../../types';
import { Icon } from '../Icon';

/** Sanitized Markdown (see markdown.ts): the only way card text reaches the page as HTML. */
export function MarkdownView({
  text,
  class: className = '',
  testId,
}: {
  text: string;
  class?: string;
  testId?: string;
}) {
  // The drawer re-renders on every board change; parsing and sanitizing only when the text changes keeps it cheap.
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div class={`markdown ${className}`} data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * The card's Markdown: a preview, and an editor with a live preview. An edit in progress is never
 * overwritten by a change from elsewhere; a notice offers the new version instead. A save applies
 * only to the version the edit started from (If-Match): when the card changed meanwhile, the
 * server refuses (412), the text stays in the editor and the person chooses between the two.
 */
export function ContentSection({
  task,
  etag,
  changedOnDisk = false,
  gone = false,
  onSaved,
  onDraftTitle,
}: {
  task: TaskView;
  /** The version of `task` as the drawer read it. */
  etag?: string;
  /** The newest change was made to the card's file on disk (a hand edit), not through the service. */
  changedOnDisk?: boolean;
  /** The card's file was deleted while this text was unsaved: it can only become a new card now. */
  gone?: boolean;
  onSaved(task: TaskView, etag?: string): void;
  /** The text being edited (the header shows the title it would give), or null when not editing. */
  onDraftTitle(title: string | null): void;
}) {
  const ctrl = useController();
  // Unsaved text from before a reload of the page comes back, with the version it applies to.
  const [kept] = useState(() => keptDraft(ctrl, `${task.id}:content`));
  const [draft, setDraft] = useState<string | null>(kept?.text ?? null);
  // The saved content the draft started from: a different task.content means someone else saved.
  const [base, setBase] = useState(kept?.base ?? task.content);
  // The version the draft applies to: the one read when editing began, or acknowledged since.
  const [baseEtag, setBaseEtag] = useState(kept ? kept.etag : etag);
  // A save refused because the card changed: the newer version, to compare with and to overwrite.
  const [conflict, setConflict] = useState<CardVersion | null>(null);
  const [saving, setSaving] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const editing = draft !== null;
  const dirty = editing && draft !== base;
  useKeptDraft(ctrl, `${task.id}:content`, dirty ? { text: draft, base, etag: baseEtag } : null);

  useEffect(() => {
    if (!editing) {
      setBase(task.content);
      setBaseEtag(etag);
    } else if (!dirty) {
      setDraft(task.content);
      setBase(task.content);
      setBaseEtag(etag);
    } else if (task.content === base) {
      // Only other fields changed: the draft still starts from the current text.
      setBaseEtag(etag);
    }
  }, [task.content, etag]);

  useEffect(() => onDraftTitle(editing ? draft : null), [draft]);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(editing);
  useEffect(() => {
    if (editing) area.current?.focus();
    // Saved or left: the editor is gone, and the keyboard goes on from this card's Edit button.
    else if (wasEditing.current && focusIsLost()) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  function startEditing() {
    setBase(task.content);
    setBaseEtag(etag);
    setDraft(task.content);
  }

  function takeVersion(content: string) {
    setBase(content);
    setBaseEtag(etag);
  }

  async function save(ifMatch = baseEtag) {
    if (draft === null) return;
    setSaving(true);
    const result = await saveFromDrawer(ctrl, task.id, { content: draft }, ifMatch);
    setSaving(false);
    if (result.kind === 'conflict') {
      setConflict(result.latest);
      onSaved(result.latest.task, result.latest.etag);
      return;
    }
    if (result.kind !== 'saved') return;
    forgetSentDraft(ctrl, `${task.id}:content`, draft);
    onSaved(result.card.task, result.card.etag);
    setConflict(null);
    setDraft(null);
    setBase(result.card.task.content);
    setBaseEtag(result.card.etag);
  }

  function discardMine() {
    if (!conflict) return;
    setConflict(null);
    setDraft(null);
    setBase(conflict.task.content);
    setBaseEtag(conflict.etag);
  }

  if (!editing) {
    // The checklist section below shows the items, ticked in place.
    const body = withoutChecklistItems(bodyWithoutTitle(task.content));
    return (
      <section class="drawer-section" aria-label="Content">
        <div class="drawer-section-head">
          <h3 class="section-title">Description</h3>
          <button
            type="button"
            class="btn btn-sm btn-ghost"
            onClick={startEditing}
            data-testid="edit-content"
            ref={editButton}
          >
            <Icon name="edit" size={14} /> Edit
          </button>
        </div>
        {body.trim() ? (
          <MarkdownView text={body} class="drawer-preview" testId="content-preview" />
        ) : (
          <button type="button" class="drawer-empty" onClick={startEditing}>
            Add a description…
          </button>
        )}
      </section>
    );
  }

  return (
    <section class="drawer-section" aria-label="Content">
      <div class="drawer-section-head">
        <h3 class="section-title">Description</h3>
        <span class="field-hint">
          Markdown; the first # heading is the title. Ctrl+Enter saves; Esc leaves the editor.
        </span>
      </div>
      {gone ? (
        <DeletedNotice task={task} text={draft} />
      ) : conflict ? (
        <div class="drawer-notice drawer-conflict" role="alert" data-testid="content-conflict">
          <Icon name="alert" size={14} />
          <span>{CHANGED_ELSEWHERE} Your text is still in the editor; the newer version is below.</span>
          <button type="button" class="btn btn-sm" disabled={saving} onClick={() => void save(conflict.etag)}>
            Overwrite with mine
          </button>
          <button type="button" class="btn btn-sm btn-ghost" disabled={saving} onClick={discardMine}>
            Discard mine
          </button>
          <div class="drawer-conflict-newer">
            <span class="field-label">Newer version</span>
            <MarkdownView text={conflict.task.content} class="drawer-preview" testId="conflict-newer" />
          </div>
        </div>
      ) : (
        task.content !== base && (
          <div class="drawer-notice" role="status" data-testid="content-changed-notice">
            <Icon name="alert" size={14} />
            <span>
              {changedOnDisk
                ? "This card's file changed on disk while you were editing."
                : 'This card was changed elsewhere while you were editing.'}{' '}
              Your text is kept until you choose.
            </span>
            <button
              type="button"
              class="btn btn-sm"
              onClick={() => (setDraft(task.content), takeVersion(task.content))}
            >
              Load new version
            </button>
            <button type="button" class="btn btn-sm btn-ghost" onClick={() => takeVersion(task.content)}>
              Keep mine
            </button>
          </div>
        )
      )}
      <textarea
        class="input drawer-editor"
        name="content"
        aria-label="Card content (Markdown)"
        value={draft}
        ref={area}
        onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !gone) {
            e.preventDefault();
            void save();
          }
        }}
      />
      <div class="form-actions">
        {!gone && (
          <button
            type="button"
            class="btn btn-primary btn-sm"
            disabled={saving}
            onClick={() => void save()}
            data-testid="save-content"
          >
            {saving ? 'Saving…' : 'Save'}
          </button>
        )}
        <button type="button" class="btn btn-ghost btn-sm" onClick={() => (setDraft(null), setConflict(null))}>
          {dirty ? 'Discard' : 'Cancel'}
        </button>
      </div>
      <div class="drawer-live-preview">
        <span class="field-label">Preview</span>
        <MarkdownView text={bodyWithoutTitle(draft ?? '')} class="drawer-preview" testId="content-preview" />
      </div>
    </section>
  );
}

/** The card's file was deleted on disk while its text was being edited: keep the text, as a new card or a copy. */
function DeletedNotice({ task, text }: { task: TaskView; text: string }) {
  const ctrl = useController();
  const [busy, setBusy] = useState(false);
  async function recreate() {
    setBusy(true);
    // A new card is opened in place of this one; the draft of the old id has nowhere left to go.
    if (await recreateCard(ctrl, task, text)) keepDraft(ctrl, `${task.id}:content`, null);
    else setBusy(false);
  }
  return (
    <div class="drawer-notice drawer-conflict" role="alert" data-testid="content-deleted-notice">
      <Icon name="alert" size={14} />
      <span>
        This card's file was deleted on disk. Your text is still in the editor: make a new card of it, or copy it.
      </span>
      <button type="button" class="btn btn-sm" disabled={busy} onClick={() => void recreate()}>
        Recreate card
      </button>
      <button type="button" class="btn btn-sm btn-ghost" onClick={() => void copyText(ctrl, text, 'text')}>
        Copy text
      </button>
    </div>
  );
}
