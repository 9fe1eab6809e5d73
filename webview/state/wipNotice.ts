import type { BoardController } from './controller';

/**
 * What the server said beside a success (a column went over its WIP limit under the "warn"
 * policy), as a toast. Every host carries it (HTTP: `Warning` headers; VS Code: the bridge's
 * `warnings`), so the page shows the server's own words and counts, whichever action caused it.
 */
export function showServerWarnings(ctrl: BoardController): void {
  ctrl.api.onWarnings = (warnings) => {
    for (const text of warnings) ctrl.toast('info', asSentence(text));
  };
}

/** The server writes a clause ("column Doing is over its WIP limit (4/3)"); a toast reads as a sentence. */
function asSentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
