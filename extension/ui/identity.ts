import { execFile } from 'node:child_process';
import * as os from 'node:os';

/**
 * The name new comments carry: `git config user.name` as git sees it in the folder (its local,
 * global and system config), else the operating-system user, so nobody has to type their name.
 */
export function commentAuthor(folderPath: string): Promise<string> {
  return new Promise((resolve) => {
    execFile('git', ['config', 'user.name'], { cwd: folderPath, timeout: 5000, windowsHide: true }, (error, stdout) => {
      const name = error ? '' : String(stdout).trim();
      resolve(name || osUser());
    });
  });
}

function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    // No passwd entry (some containers): the environment is the last word.
    return process.env.USER ?? process.env.USERNAME ?? '';
  }
}
