import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/**
 * A text box and its button that add one thing to a list in the drawer (a checklist item, a
 * sub-card). Enter or the button adds; the text stays until `onAdd` says the thing was saved, so
 * a refused add keeps what was typed.
 */
export function AddRow({
  class: className,
  name,
  placeholder,
  label,
  busy,
  testId,
  onAdd,
  children,
}: {
  class: string;
  name: string;
  placeholder: string;
  label: string;
  busy: boolean;
  testId?: string;
  onAdd(text: string): Promise<boolean>;
  /** The button's content. */
  children: ComponentChildren;
}) {
  const [text, setText] = useState('');

  async function submit(event: Event) {
    event.preventDefault();
    const value = text.trim();
    if (value === '' || busy) return;
    if (await onAdd(value)) setText('');
  }

  return (
    <form class={`add-row ${className}`} onSubmit={(e) => void submit(e)}>
      <input
        class="input"
        type="text"
        name={name}
        placeholder={placeholder}
        aria-label={label}
        value={text}
        disabled={busy}
        onInput={(e) => setText((e.target as HTMLInputElement).value)}
      />
      <button type="submit" class="btn btn-sm" disabled={busy || text.trim() === ''} data-testid={testId}>
        {children}
      </button>
    </form>
  );
}
