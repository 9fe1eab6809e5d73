import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseConfig } from '../../server/config/parseConfig';

/**
 * The providers a board may use while its folder is not trusted: plain files read in place. Any
 * other provider loads a module from the folder (a plugin), or opens a database or a bucket whose
 * address and schema the repository decides, and that is what Restricted Mode keeps from running.
 */
const READ_IN_PLACE: Record<string, readonly string[]> = {
  'card.storage': ['markdown'],
  'attachment.storage': ['localfs'],
  'auth.identity': ['token'],
};

/** Why the board of `root` cannot open read-only in an untrusted folder, or null when it can. */
export async function restrictedOpenProblem(root: string): Promise<string | null> {
  let text: string;
  try {
    text = await fs.readFile(path.join(root, '.kanban.json'), 'utf8');
  } catch {
    return null; // no .kanban.json: plain Markdown files
  }
  let plugins: Record<string, { provider: string }>;
  try {
    plugins = parseConfig(text).plugins;
  } catch {
    return null; // the open reports the broken file itself, with its line
  }
  for (const [capability, allowed] of Object.entries(READ_IN_PLACE)) {
    const provider = plugins[capability]?.provider;
    if (provider !== undefined && !allowed.includes(provider))
      return `Restricted Mode: this board's ${capability} provider "${provider}" (.kanban.json) runs only in a trusted folder; trust this folder to open the board`;
  }
  return null;
}
