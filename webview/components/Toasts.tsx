import { useAppState, useController } from '../context';
import { Icon } from './Icon';

/** Messages at the bottom: refusals from the server, confirmations with an Undo. */
export function Toasts() {
  const ctrl = useController();
  const { toasts } = useAppState();
  return (
    <div class="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} class={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
          <Icon name={toast.kind === 'error' ? 'alert' : 'check'} />
          <span class="toast-text">{toast.text}</span>
          {toast.action && (
            <button
              type="button"
              class="btn btn-sm toast-action"
              onClick={() => {
                ctrl.dismissToast(toast.id);
                toast.action?.run();
              }}
            >
              {toast.action.label}
            </button>
          )}
          <button
            type="button"
            class="icon-btn toast-close"
            aria-label="Dismiss"
            onClick={() => ctrl.dismissToast(toast.id)}
          >
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
