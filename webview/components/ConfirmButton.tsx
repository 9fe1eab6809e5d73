import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/** A destructive button that asks once more in place: "Delete?" then "Yes, delete" / "Cancel". */
export function ConfirmButton({
  children,
  question,
  confirmLabel,
  onConfirm,
  class: className = 'btn btn-danger-ghost',
}: {
  children: ComponentChildren;
  question: string;
  confirmLabel: string;
  onConfirm(): void;
  class?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" class={className} onClick={() => setAsking(true)}>
        {children}
      </button>
    );
  }
  return (
    <span class="confirm-inline" role="alertdialog" aria-label={question}>
      <span class="confirm-question">{question}</span>
      <button
        type="button"
        class="btn btn-danger btn-sm"
        ref={(el) => el?.focus()}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" class="btn btn-ghost btn-sm" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
