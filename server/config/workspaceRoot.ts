import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** A folder is a workspace when it holds `.kanban.json` or `.kanban/`. */
export const isWorkspaceRoot = (dir: string): boolean =>
  existsSync(path.join(dir, '.kanban.json')) || existsSync(path.join(dir, '.kanban'));

/**
 * The nearest folder at or above `dir` that is a workspace, as git finds its repository; undefined
 * when there is none. `stopAt` (an ancestor of `dir`) is the highest folder looked at, so a host
 * that lets callers name folders below it never opens one above it.
 */
export function nearestWorkspaceRoot(dir: string, stopAt?: string): string | undefined {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (isWorkspaceRoot(current)) return current;
    if (current === stopAt || path.dirname(current) === current) return undefined;
  }
}
