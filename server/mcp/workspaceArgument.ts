import { existsSync, realpathSync, statSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { ApiClient } from '../client/apiClient';
import { nearestWorkspaceRoot } from '../config/workspaceRoot';
import { ToolError } from './tool';
import { WORKSPACE_ARG } from './toolCatalog';
import { WorkspacePool } from './workspacePool';

/**
 * Every tool's optional `workspace` argument: one MCP registration serves several repositories.
 * The host says where it may lead (`kanban mcp --allow-dir`); a call that names no workspace, or
 * the host's own, runs on the host's default workspace.
 */
export interface WorkspaceChooser {
  /** Run `work` on the workspace `workspace` names (`fallback` when it is the default); a ToolError when it may not. */
  run<T>(workspace: string, fallback: ApiClient, work: (client: ApiClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Said once in the server instructions rather than in every tool's schema. */
export const WORKSPACE_NOTE =
  "`workspace` (optional in every tool) is the folder of another repository's board, absolute or relative to this server's workspace; omit it for this server's own.";

/** How many workspaces besides the default stay open at once; `kanban mcp --allow-dir` documents it. */
export const OPEN_WORKSPACES = 16;

/** A host that serves one workspace whatever the argument says: over HTTP, a server serves its own. */
export function oneWorkspaceOnly(why: string): WorkspaceChooser {
  return {
    run: () => Promise.reject(new ToolError(why)),
    close: async () => undefined,
  };
}

const within = (folder: string, base: string) =>
  folder === base || folder.startsWith(base.endsWith(path.sep) ? base : base + path.sep);

/**
 * Workspaces opened in this process below the allowed folders. A path is judged after its symlinks
 * are resolved, so neither `..` nor a link inside an allowed folder leads out of it. The workspace
 * is the nearest folder at or above it that has a board (as the `kanban` CLI finds it), looked for
 * no higher than the allowed folder; a folder with none is a workspace of its own.
 */
export class AllowedWorkspaces implements WorkspaceChooser {
  protected readonly defaultRoot: string;
  private readonly allowed: string[];
  private readonly pool: WorkspacePool;

  /** `allowDirs` must exist: the host checks them at start (allowedFolders). */
  constructor(
    defaultRoot: string,
    allowDirs: readonly string[],
    open: (root: string) => Promise<ApiClient>,
    log: (line: string) => void,
    capacity = OPEN_WORKSPACES,
  ) {
    this.defaultRoot = realpathSync(defaultRoot);
    this.allowed = allowDirs.map((dir) => realpathSync(dir));
    this.pool = new WorkspacePool(open, capacity, log);
  }

  async run<T>(workspace: string, fallback: ApiClient, work: (client: ApiClient) => Promise<T>): Promise<T> {
    const root = await this.rootOf(workspace);
    return root === this.defaultRoot ? work(fallback) : this.pool.use(root, work);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async rootOf(workspace: string): Promise<string> {
    const asked = path.resolve(this.defaultRoot, workspace);
    const folder = await fs.realpath(asked).catch(() => undefined);
    if (folder === this.defaultRoot) return folder;
    // Judged before saying a folder is missing, so no answer tells what exists outside the allowed folders.
    const base = this.allowed.find((dir) => within(folder ?? asked, dir));
    if (base === undefined) throw new ToolError(this.notAllowed(workspace, folder ?? asked));
    if (folder === undefined) throw new ToolError(`workspace "${workspace}": there is no folder ${asked}`);
    if (!(await fs.stat(folder)).isDirectory())
      throw new ToolError(`workspace "${workspace}": ${folder} is not a folder`);
    return nearestWorkspaceRoot(folder, base) ?? folder;
  }

  protected notAllowed(workspace: string, folder: string): string {
    const allowed = this.allowed.length
      ? `only ${this.defaultRoot} and folders under ${this.allowed.join(', ')} are`
      : `only ${this.defaultRoot} is`;
    return `workspace "${workspace}" (${folder}) is not an allowed folder: ${allowed}; allow it with kanban mcp --allow-dir <folder>`;
  }
}

/**
 * A server's `/mcp`: it serves its own workspace, so `workspace` may name that folder or one inside
 * it (an agent passes the folder it works in) and nothing else, not even a board nested in it.
 */
export class OwnWorkspaceOnly extends AllowedWorkspaces {
  constructor(root: string) {
    super(
      root,
      [root],
      (nested) =>
        Promise.reject(new ToolError(`workspace ${nested} is a board of its own; this server serves only ${root}`)),
      () => undefined,
      0,
    );
  }

  protected notAllowed(workspace: string, folder: string): string {
    return `workspace "${workspace}" (${folder}) is not this server's: it serves ${this.defaultRoot}; for another repository, use that repository's server or kanban mcp --allow-dir`;
  }
}

/**
 * `--allow-dir` folders as real paths; an error naming the first that is missing or not a folder,
 * so a typo fails at start rather than as a refusal of every call.
 */
export function allowedFolders(dirs: readonly string[], base: string): string[] {
  return dirs.map((dir) => {
    const resolved = path.resolve(base, dir);
    const real = existsSync(resolved) ? realpathSync(resolved) : undefined;
    if (real === undefined || !statSync(real).isDirectory())
      throw new Error(`--allow-dir ${dir}: there is no folder ${resolved}`);
    return real;
  });
}

/**
 * A tool call's `workspace` argument taken out of its arguments (no tool sees it), and the call run
 * on the workspace it names, or on `fallback` when it names none.
 */
export function inWorkspace<T>(
  chooser: WorkspaceChooser | undefined,
  args: Record<string, unknown>,
  fallback: ApiClient,
  work: (client: ApiClient, args: Record<string, unknown>) => Promise<T>,
): Promise<T> {
  const { [WORKSPACE_ARG]: workspace, ...rest } = args;
  if (workspace === undefined) return work(fallback, rest);
  return (chooser ?? ONE_WORKSPACE).run(String(workspace), fallback, (client) => work(client, rest));
}

const ONE_WORKSPACE = oneWorkspaceOnly(
  'this server serves one workspace: the workspace argument is not available here',
);
