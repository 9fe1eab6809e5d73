import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A text input that saves when the person is done (Enter or leaving the field), not on every key.
 * While it has focus, a live change from elsewhere does not replace what is being typed; once it
 * loses focus it shows the saved value again.
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
  useEffect(() => {
    if (!focused.current) setText(value);
  }, [value]);

  function commit() {
    if (text !== value) onCommit(text);
  }

  return (
    <input
      class={className}
      type="text"
      name={name}
      list={list}
      value={text}
      placeholder={placeholder}
      aria-label={label}
      onFocus={() => (focused.current = true)}
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
}
