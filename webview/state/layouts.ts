import type { IconName } from '../components/Icon';

/**
 * The ways the cards can be shown, one entry each: the view switcher draws a button per entry
 * after the board, and the URL, the kept view and the saved preference accept exactly these ids.
 * A new view is one entry here and one case where App picks the component.
 */
export const LAYOUTS = [
  { id: 'board', icon: 'board', label: 'Board view', title: 'Board view: the cards in their columns' },
  { id: 'table', icon: 'list', label: 'Table view', title: 'Table view: the cards as sortable rows' },
  { id: 'graph', icon: 'graph', label: 'Graph view', title: 'Graph view: what waits for what, and sub-cards' },
  { id: 'metrics', icon: 'chart', label: 'Flow metrics', title: 'Flow metrics: cycle time, throughput, WIP age' },
] as const satisfies readonly { id: string; icon: IconName; label: string; title: string }[];

export type Layout = (typeof LAYOUTS)[number]['id'];

export function isLayout(value: unknown): value is Layout {
  return LAYOUTS.some((layout) => layout.id === value);
}
