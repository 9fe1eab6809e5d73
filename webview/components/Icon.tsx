/**
 * The board's names for its icons, each drawn by the codicon of the same meaning: the icon font VS
 * Code draws its own buttons with, so the board looks native inside the editor, and the browser board
 * (which loads the same font, dist/webview/codicon.css) looks the same. Names stay the board's own so
 * a call site says what the icon means, not which glyph draws it.
 */
const CODICONS = {
  plus: 'add',
  search: 'search',
  settings: 'settings-gear',
  close: 'close',
  chevronDown: 'chevron-down',
  chevronRight: 'chevron-right',
  calendar: 'calendar',
  comment: 'comment',
  paperclip: 'attach',
  file: 'file',
  trash: 'trash',
  restore: 'discard',
  more: 'ellipsis',
  // The browser board's theme switch (VS Code has its own): a lit bulb for light, an unlit one for dark.
  sun: 'lightbulb',
  moon: 'lightbulb-empty',
  tag: 'tag',
  minimize: 'screen-normal',
  maximize: 'screen-full',
  edit: 'edit',
  download: 'cloud-download',
  upload: 'cloud-upload',
  bolt: 'zap',
  list: 'table',
  board: 'project',
  chart: 'graph-line',
  lanes: 'group-by-ref-type',
  subcards: 'list-tree',
  graph: 'type-hierarchy',
  filter: 'filter',
  fuzzy: 'wand',
  check: 'check',
  archive: 'archive',
  alert: 'warning',
  form: 'checklist',
  bot: 'robot',
  question: 'question',
} as const;

export type IconName = keyof typeof CODICONS;

/** A glyph sized in pixels; with a label it is an image of that name, without one it is decoration. */
export function Icon({ name, size = 16, label }: { name: IconName; size?: number; label?: string }) {
  return (
    <span
      class={`icon codicon codicon-${CODICONS[name]}`}
      style={{ fontSize: `${size}px` }}
      aria-hidden={label ? undefined : 'true'}
      role={label ? 'img' : undefined}
      aria-label={label}
    />
  );
}
