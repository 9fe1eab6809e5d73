import { useState } from 'preact/hooks';
import { useController } from '../../context';
import { forgetSentDraft, keptDraft, useKeptDraft } from '../../state/keptDrafts';
import { dateTime } from '../../format';
import { commentAuthor } from '../../state/drawerActions';
import type { Comment, TaskView } from '../../types';
import { Avatar } from '../CardView';
import { ConfirmButton } from '../ConfirmButton';
import { Icon } from '../Icon';
import { MarkdownView } from './ContentSection';

function CommentItem({ task, comment, onChanged }: { task: TaskView; comment: Comment; onChanged(): void }) {
  const ctrl = useController();
  const [draft, setDraft] = useState<string | null>(null);

  async function save() {
    if (draft === null || !draft.trim()) return;
    const saved = await ctrl.attempt(() => ctrl.api.editComment(task.boardId, task.id, comment.id, draft));
    if (saved) {
      setDraft(null);
      onChanged();
    }
  }

  async function remove() {
    const done = await ctrl.attempt(
      async () => (await ctrl.api.deleteComment(task.boardId, task.id, comment.id), true),
    );
    if (done) onChanged();
  }

  return (
    <li class="comment" data-comment-id={comment.id}>
      <div class="comment-head">
        <Avatar name={comment.author} />
        <span class="comment-author">{comment.author}</span>
        <span class="comment-date" title={comment.created}>
          {dateTime(comment.created)}
          {comment.modified && comment.modified !== comment.created ? ' · edited' : ''}
        </span>
        {draft === null && (
          <span class="comment-tools">
            <button
              type="button"
              class="icon-btn"
              aria-label="Edit comment"
              title="Edit"
              onClick={() => setDraft(comment.content)}
            >
              <Icon name="edit" size={14} />
            </button>
            <ConfirmButton
              class="icon-btn"
              question="Delete this comment?"
              confirmLabel="Delete"
              onConfirm={() => void remove()}
            >
              <Icon name="trash" size={14} label="Delete comment" />
            </ConfirmButton>
          </span>
        )}
      </div>
      {draft === null ? (
        <MarkdownView text={comment.content} class="comment-body" />
      ) : (
        <div class="comment-edit">
          <textarea
            class="input"
            aria-label="Edit comment"
            value={draft}
            onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
          />
          <div class="form-actions">
            <button type="button" class="btn btn-primary btn-sm" onClick={() => void save()}>
              Save
            </button>
            <button type="button" class="btn btn-ghost btn-sm" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </li>
  );
}

/** Comments in stored order, each editable and deletable, and a box to add one. */
export function CommentsSection({ task, onChanged }: { task: TaskView; onChanged(): void }) {
  const ctrl = useController();
  const [author, setAuthor] = useState(() => commentAuthor(ctrl));
  const [text, setText] = useState(() => keptDraft(ctrl, `${task.id}:comment`)?.text ?? '');
  useKeptDraft(ctrl, `${task.id}:comment`, text ? { text } : null);
  const comments = task.comments ?? [];

  async function add(e: Event) {
    e.preventDefault();
    if (!text.trim()) return;
    const name = author.trim();
    const added = await ctrl.attempt(() => ctrl.api.addComment(task.boardId, task.id, name, text));
    if (!added) return;
    forgetSentDraft(ctrl, `${task.id}:comment`, text);
    ctrl.persist({ commentAuthor: name });
    setText('');
    onChanged();
  }

  return (
    <section class="drawer-section" aria-label="Comments">
      <h3 class="section-title">Comments {comments.length > 0 && <span class="count">{comments.length}</span>}</h3>
      <ul class="comment-list">
        {comments.map((c) => (
          <CommentItem key={c.id} task={task} comment={c} onChanged={onChanged} />
        ))}
      </ul>
      <form class="comment-new" onSubmit={(e) => void add(e)}>
        <textarea
          class="input"
          name="comment"
          placeholder="Write a comment (Markdown)…"
          aria-label="New comment"
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        />
        <div class="form-actions">
          <input
            class="input comment-author-input"
            name="author"
            placeholder="Your name"
            aria-label="Comment author"
            value={author}
            onInput={(e) => setAuthor((e.target as HTMLInputElement).value)}
          />
          <button type="submit" class="btn btn-primary btn-sm" disabled={!text.trim()}>
            Comment
          </button>
        </div>
      </form>
    </section>
  );
}
