import { useLayoutEffect } from 'preact/hooks';

/**
 * Text typed in the drawer and not yet saved, kept in the page's saved state (VS Code webview state,
 * or localStorage in a browser) so a reload of the page or of the window gives it back. Keyed by
 * card and field; dropped once saved or discarded.
 */
export interface KeptDraft {
  text: string;
  /** For an edit of saved text: the text it started from and that version's ETag. */
  base?: string;
  etag?: string;
}

/** What this needs of the board controller: its page state that survives reloads. */
interface Controller {
  preference(key: string): unknown;
  persist(patch: Record<string, unknown>): void;
}

const KEY = 'drafts';
/** A forgotten draft per card would otherwise pile up in the state for ever. */
const MAX_DRAFTS = 20;

function allDrafts(ctrl: Controller): Record<string, KeptDraft> {
  const value = ctrl.preference(KEY);
  return value && typeof value === 'object' ? (value as Record<string, KeptDraft>) : {};
}

export function keptDraft(ctrl: Controller, key: string): KeptDraft | undefined {
  const draft = allDrafts(ctrl)[key];
  return draft && typeof draft.text === 'string' ? draft : undefined;
}

export function keepDraft(ctrl: Controller, key: string, draft: KeptDraft | null): void {
  const drafts = { ...allDrafts(ctrl) };
  if (draft === null) {
    if (!(key in drafts)) return;
    delete drafts[key];
  } else {
    delete drafts[key]; // re-inserted last: the newest survive the cap
    drafts[key] = draft;
    const keys = Object.keys(drafts);
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_DRAFTS))) delete drafts[old];
  }
  ctrl.persist({ [KEY]: drafts });
}

/**
 * After `sent` was saved: forget the kept draft when it still holds that text. Called from the save
 * itself, because the drawer may have closed while the answer was on its way and no effect of its
 * would run; a draft typed on after the press is newer and stays.
 */
export function forgetSentDraft(ctrl: Controller, key: string, sent: string): void {
  if (keptDraft(ctrl, key)?.text === sent) keepDraft(ctrl, key, null);
}

/**
 * Keep `draft` under `key` whenever it changes; null (nothing unsaved) forgets it. A layout effect,
 * run as the change is drawn: a plain effect waits for the next paint and is dropped when the drawer
 * closes first, which left a saved text behind as a draft that came back on the next open.
 */
export function useKeptDraft(ctrl: Controller, key: string, draft: KeptDraft | null): void {
  useLayoutEffect(() => keepDraft(ctrl, key, draft), [key, draft?.text, draft?.base, draft?.etag]);
}
