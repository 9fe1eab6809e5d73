import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ValidationError } from '../core/errors';
import type { Settings } from '../core/model';
import { settingsProblem } from '../config/parseConfig';
import { checkSlugId } from './validate';
import type { Workspace } from './workspace';

export function getSettings(ws: Workspace): Settings {
  return ws.config.settings;
}

export async function updateSettings(ws: Workspace, patch: Partial<Settings>) {
  return ws.mutate(async () => {
    for (const [key, value] of Object.entries(patch)) {
      const problem = settingsProblem(key, value);
      if (problem) throw new ValidationError(problem);
    }
    // Stricter than loading: a hand-written config keeps working, but the API only stores a usable column id.
    if (patch.defaultStatus !== undefined) checkSlugId(patch.defaultStatus, 'defaultStatus');
    const config = await ws.updateConfig((draft) => {
      draft.settings = { ...draft.settings, ...patch };
    });
    ws.emit('settings.updated', null, { settings: config.settings, changed: Object.keys(patch) });
    return config.settings;
  });
}

/** Absolute, canonical form of a workspace-relative, absolute or `~`-prefixed path. Reads nothing. */
export async function resolvePath(
  ws: Workspace,
  input: string,
): Promise<{ input: string; path: string; exists: boolean }> {
  if (input.trim() === '') throw new ValidationError('query parameter "path" must not be empty');
  if (input.includes('\u0000')) throw new ValidationError('path must not contain NUL characters');
  let expanded = input;
  if (input === '~' || input.startsWith('~/')) expanded = path.join(os.homedir(), input.slice(1));
  const absolute = path.resolve(ws.root, expanded);
  const real = await fs.realpath(absolute).catch(() => null);
  return { input, path: real ?? absolute, exists: real !== null };
}
