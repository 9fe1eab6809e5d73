import { useEffect, useRef, useState } from 'preact/hooks';
import { useController } from '../../context';
import { deleteAttachment, isImageName, uploadFiles } from '../../state/drawerActions';
import type { TaskView } from '../../types';
import { ConfirmButton } from '../ConfirmButton';
import { Icon } from '../Icon';

/** An image attachment drawn from a blob URL (fetched through the transport, so it works in VS Code too). */
function ImagePreview({ task, filename }: { task: TaskView; filename: string }) {
  const ctrl = useController();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    let live = true;
    ctrl.transport
      .fetchFile(ctrl.api.attachmentPath(task.boardId, task.id, filename))
      .then((blob) => {
        if (!live) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [task.id, filename, task.modified]);
  if (!url) return <span class="attachment-thumb is-loading" aria-hidden="true" />;
  return <img class="attachment-thumb" src={url} alt={`Preview of ${filename}`} />;
}

/** Files attached to the card: upload (picker or drop on the drawer), download, delete, image previews. */
export function AttachmentsSection({ task, onSaved }: { task: TaskView; onSaved(task: TaskView): void }) {
  const ctrl = useController();
  const picker = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  async function upload(files: File[]) {
    setBusy(true);
    const saved = await uploadFiles(ctrl, task, files);
    setBusy(false);
    if (saved) onSaved(saved);
  }

  async function remove(filename: string) {
    const saved = await deleteAttachment(ctrl, task, filename);
    if (saved) onSaved(saved);
  }

  return (
    <section class="drawer-section" aria-label="Attachments">
      <div class="drawer-section-head">
        <h3 class="section-title">
          Attachments {task.attachments.length > 0 && <span class="count">{task.attachments.length}</span>}
        </h3>
        <button type="button" class="btn btn-sm btn-ghost" disabled={busy} onClick={() => picker.current?.click()}>
          <Icon name="upload" size={14} /> {busy ? 'Uploading…' : 'Upload'}
        </button>
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          name="attachments"
          data-testid="attachment-input"
          onChange={(e) => {
            const input = e.target as HTMLInputElement;
            const files = Array.from(input.files ?? []);
            input.value = '';
            void upload(files);
          }}
        />
      </div>
      {task.attachments.length === 0 && (
        <p class="field-hint">No files yet. Upload, or drop files anywhere on this card.</p>
      )}
      <ul class="attachment-list">
        {task.attachments.map((name) => (
          <li key={name} class="attachment" data-attachment={name}>
            {isImageName(name) ? (
              <ImagePreview task={task} filename={name} />
            ) : (
              <span class="attachment-icon">
                <Icon name="file" size={18} />
              </span>
            )}
            <span class="attachment-name" title={name}>
              {name}
            </span>
            <button
              type="button"
              class="icon-btn"
              aria-label={`Download ${name}`}
              title="Download"
              onClick={() => ctrl.transport.download(ctrl.api.attachmentPath(task.boardId, task.id, name, true), name)}
            >
              <Icon name="download" size={14} />
            </button>
            <ConfirmButton
              class="icon-btn"
              question={`Delete ${name}?`}
              confirmLabel="Delete"
              onConfirm={() => void remove(name)}
            >
              <Icon name="trash" size={14} label={`Delete ${name}`} />
            </ConfirmButton>
          </li>
        ))}
      </ul>
    </section>
  );
}
