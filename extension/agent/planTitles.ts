/**
 * Card titles from a plan as a person writes one: a line each, list markers and checkboxes
 * dropped, headings and blank lines skipped. Used when no language model is at hand, and to read
 * the model's own answer.
 */
export function planTitles(plan: string): string[] {
  return plan
    .split(/\r?\n/)
    .map((line) =>
      line
        .trim()
        .replace(/^(?:[-*+•]|\d+[.)])\s+/, '')
        .replace(/^\[[ xX]\]\s+/, '')
        .trim(),
    )
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => (line.length > 200 ? line.slice(0, 200) : line));
}
