import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A text input that saves when the person is done (Enter or leaving the field), not on every key.
 * While it has focus, a live change from elsewhere does not replace what is being typed; once it
 * loses focus it shows the saved value again. When the value changed elsewhere (a hand edit of the
 * card's file, another client) while the person typed, their text is not saved over it unasked: a
 * notice shows the new value and lets them keep theirs or load it.
 */
export function CommitInput({
  value,
  onCommit,
  placeholder,
  label,
  name,
  list,
  class: className = 'input',
}: {
  value: string;
  onCommit(value: string): void;
  placeholder?: string;
  label: string;
  name?: string;
  /** The id of a `<datalist>` of suggestions. */
  list?: string;
  class?: string;
}) {
  const [text, setText] = useState(value);
  const focused = useRef(false);
  // The saved value the typing started from: another value now means it changed elsewhere meanwhile.
  const typedOver = useRef(value);
  const [changedTo, setChangedTo] = useState<string | null>(null);
  useEffect(() => {
    if (changedTo !== null) setChangedTo(value);
    // Our own save came back (Enter while typing): typing on starts from it.
    else if (value === text) typedOver.current = value;
    else if (!focused.current) {
      setText(value);
      typedOver.current = value;
    }
  }, [value]);

  function commit() {
    if (text === value) {
      typedOver.current = value;
      setChangedTo(null);
    } else if (value !== typedOver.current) setChangedTo(value);
    else onCommit(text);
  }

  function settle(keepMine: boolean) {
    typedOver.current = value;
    setChangedTo(null);
    if (keepMine) onCommit(text);
    else setText(value);
  }

  const input = (
    <input
      class={className}
      type="text"
      name={name}
      list={list}
      value={text}
      placeholder={placeholder}
      aria-label={label}
      onFocus={() => {
        focused.current = true;
        if (changedTo === null) typedOver.current = value;
      }}
      onInput={(e) => setText((e.target as HTMLInputElement).value)}
      onBlur={() => {
        focused.current = false;
        commit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          commit();
        } else if (e.key === 'Escape' && text !== value) {
          // First Escape undoes the typing; the next one closes the drawer.
          e.stopPropagation();
          setText(value);
        }
      }}
    />
  );
  if (changedTo === null) return input;
  return (
    <>
      {input}
      <div class="drawer-notice field-changed" role="status" data-testid="field-changed-notice">
        <span>
          {label} changed elsewhere to “{changedTo || 'nothing'}” while you typed; yours is not saved yet.
        </span>
        <button type="button" class="btn btn-sm" onClick={() => settle(true)}>
          Keep mine
        </button>
        <button type="button" class="btn btn-sm btn-ghost" onClick={() => settle(false)}>
          Load new value
        </button>
      </div>
    </>
  );
}
