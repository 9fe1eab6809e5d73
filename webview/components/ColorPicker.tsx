const SWATCHES = [
  '#6b7280',
  '#ef4444',
  '#f97316',
  '#f59e0b',
  '#eab308',
  '#22c55e',
  '#14b8a6',
  '#06b6d4',
  '#3b82f6',
  '#6366f1',
  '#8b5cf6',
  '#ec4899',
];

/** A row of swatches plus a free color input; reports hex colors. */
export function ColorPicker({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange(color: string): void;
  label: string;
}) {
  return (
    <div class="color-picker" role="group" aria-label={label}>
      {SWATCHES.map((color) => (
        <button
          key={color}
          type="button"
          class={`swatch${color.toLowerCase() === value.toLowerCase() ? ' is-selected' : ''}`}
          style={{ background: color }}
          title={color}
          aria-label={`${label} ${color}`}
          onClick={() => onChange(color)}
        />
      ))}
      <input
        type="color"
        class="swatch-custom"
        value={value}
        aria-label={`${label}: custom`}
        onChange={(e) => onChange((e.target as HTMLInputElement).value)}
      />
    </div>
  );
}
