import { useAppState, useController } from '../context';

/**
 * Files the service could not read stay out of the board (their last good version is shown, and
 * nothing is written to them); this says which, so nobody wonders where a card or a setting went.
 * In VS Code each file opens at the line the parser stopped at.
 */
export function BrokenFilesNotice() {
  const ctrl = useController();
  const { invalidFiles } = useAppState();
  if (invalidFiles.length === 0) return null;
  const openable = Boolean(ctrl.transport.notifyHost);
  return (
    <div class="banner banner-warning broken-files" role="status" data-testid="broken-files">
      <span>
        {invalidFiles.length === 1 ? 'A file does not parse' : `${invalidFiles.length} files do not parse`}; the board
        keeps their last good version and never rewrites them. Fix them by hand:
      </span>
      <ul class="broken-files-list">
        {invalidFiles.map((file) => (
          <li key={file.path} data-broken-file={file.path}>
            {openable ? (
              <button
                type="button"
                class="link-btn"
                onClick={() =>
                  ctrl.transport.notifyHost?.({
                    type: 'openFile',
                    path: file.path,
                    ...(file.line ? { line: file.line } : {}),
                  })
                }
              >
                {file.path}
                {file.line ? `:${file.line}` : ''}
              </button>
            ) : (
              <code>
                {file.path}
                {file.line ? `:${file.line}` : ''}
              </code>
            )}{' '}
            <span class="broken-files-reason">{file.reason}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
