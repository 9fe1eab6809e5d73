import type { BoardAccess } from './boardAccess';

/**
 * What the server said beside a success (a column went over its WIP limit under the "warn"
 * policy), as a toast. Every host carries it (HTTP: `Warning` headers; VS Code: the bridge's
 * `warnings`), so the page shows the server's own words and counts, whichever action caused it.
 */
export function showServerWarnings(ctrl: BoardAccess): void {
  ctrl.api.onWarnings = (warnings) => {
    const columnNames = ctrl.state.board?.columns.map((c) => c.name) ?? [];
    for (const text of warnings) ctrl.toast('info', asSentence(withWholeNames(text, columnNames)));
  };
}

/**
 * An HTTP header carries only ASCII, so the server writes "?" for the rest of a column name
 * ("column ?? is over ..."); the page knows the board's names and puts the whole one back.
 */
export function withWholeNames(text: string, columnNames: readonly string[]): string {
  let out = text;
  for (const name of columnNames) {
    const ascii = name.replace(/[^\x20-\x7e]/g, '?');
    if (ascii !== name) out = out.split(`column ${ascii} `).join(`column ${name} `);
  }
  return out;
}

/** The server writes a clause ("column Doing is over its WIP limit (4/3)"); a toast reads as a sentence. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
