/** Colours of the current theme, read from its CSS variables (VS Code's too, through theme.css). */
export interface ChartColors {
  text: string;
  grid: string;
  accent: string;
  series: string[];
}

const SERIES_VARIABLES = [
  '--kb-text-faint',
  '--prio-low-fg',
  '--prio-medium-fg',
  '--kb-warning',
  '--kb-accent',
  '--kb-danger',
  '--prio-high-fg',
  '--kb-success',
];

export function themeColors(root: Element = document.documentElement): ChartColors {
  const style = getComputedStyle(root);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--kb-text-muted', '#5f6878'),
    grid: read('--kb-border', 'rgba(20, 28, 45, 0.1)'),
    accent: read('--kb-accent', '#4f46e5'),
    series: SERIES_VARIABLES.map((name) => read(name, '#888888')),
  };
}
