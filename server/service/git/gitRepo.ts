import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { cardIdsOfTrailer, LINK_TRAILERS, type GitCommitLink } from '../../core/gitLinkModel';
import { GitError, runGit, streamGit } from './runGit';

/** The repository a folder is in, as git finds it (a worktree has its own git dir beside the common one). */
export interface GitRepo {
  git: string;
  /** The folder git runs in: the workspace root. */
  cwd: string;
  /** Holds HEAD (per worktree). */
  gitDir: string;
  /** Holds refs/ and packed-refs (shared by every worktree). */
  commonDir: string;
}

/** The repository `cwd` is in, or null when it is in none or git cannot run there. */
export async function openRepo(cwd: string, git: string): Promise<GitRepo | null> {
  try {
    const out = await runGit({
      git,
      cwd,
      args: ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir'],
    });
    const [gitDir, commonDir] = out.split('\n').map((line) => line.trim());
    return gitDir && commonDir ? { git, cwd, gitDir, commonDir } : null;
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
}

/** A sign of the refs' state, and the newest modification time among the files it looked at. */
export interface RefsFingerprint {
  sign: string;
  newestMs: number;
}

/**
 * A cheap sign of the refs' state, read from the file system without running git: HEAD's content
 * and file identity, packed-refs' identity, and every folder under refs/ (git replaces a ref by
 * renaming a lock file over it, which changes its folder's mtime). Equal signs mean the branches
 * and HEAD are where they were; a different sign only means "ask git".
 */
export async function refsFingerprint(repo: GitRepo): Promise<RefsFingerprint> {
  const head = path.join(repo.gitDir, 'HEAD');
  const [headText, headStat, packed] = await Promise.all([
    fs.readFile(head, 'utf8'),
    fs.stat(head, { bigint: true }),
    fs.stat(path.join(repo.commonDir, 'packed-refs'), { bigint: true }).catch(() => null),
  ]);
  const folders: Stamped[] = [];
  await walkFolders(path.join(repo.commonDir, 'refs'), folders);
  // The walk finishes folders in any order.
  folders.sort((a, b) => (a.text < b.text ? -1 : 1));
  const stamped = [stampOf('HEAD', headStat), ...(packed ? [stampOf('packed-refs', packed)] : []), ...folders];
  return {
    sign: [headText.trim(), ...stamped.map((s) => s.text)].join('|'),
    newestMs: Math.max(...stamped.map((s) => s.mtimeMs)),
  };
}

interface Stamped {
  text: string;
  mtimeMs: number;
}

function stampOf(name: string, stat: { ino: bigint; size: bigint; mtimeNs: bigint }): Stamped {
  return { text: `${name}:${stat.ino}:${stat.size}:${stat.mtimeNs}`, mtimeMs: Number(stat.mtimeNs / 1_000_000n) };
}

async function walkFolders(folder: string, out: Stamped[]): Promise<void> {
  const [stat, entries] = await Promise.all([
    fs.stat(folder, { bigint: true }),
    fs.readdir(folder, { withFileTypes: true }),
  ]);
  out.push(stampOf(folder, stat));
  await Promise.all(
    entries.filter((entry) => entry.isDirectory()).map((entry) => walkFolders(path.join(folder, entry.name), out)),
  );
}

/** A branch tip: short name, commit id and that commit. */
export interface BranchTip {
  name: string;
  sha: string;
  lastCommit: GitCommitLink;
}

export interface RefState {
  /** The commit HEAD points at, or null on an unborn branch. */
  head: string | null;
  branches: BranchTip[];
}

const FIELD = '\u001f';
const REF_FORMAT = [
  '%(objectname)',
  '%(refname)',
  '%(symref)',
  '%(objecttype)',
  '%(subject)',
  '%(authorname)',
  '%(authordate:iso-strict)',
].join('%1f');

export async function readRefs(repo: GitRepo): Promise<RefState> {
  const [head, refs] = await Promise.all([
    runGit({ git: repo.git, cwd: repo.cwd, args: ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'] }).then(
      (out) => out.trim() || null,
      (error: unknown) => {
        // --verify --quiet exits 1 on an unborn branch; anything else is a real failure.
        if (error instanceof GitError && error.exitCode === 1) return null;
        throw error;
      },
    ),
    runGit({
      git: repo.git,
      cwd: repo.cwd,
      args: ['for-each-ref', `--format=${REF_FORMAT}`, 'refs/heads', 'refs/remotes'],
    }),
  ]);
  const branches: BranchTip[] = [];
  for (const line of refs.split('\n')) {
    const [sha, refname, symref, type, subject, author, date] = line.split(FIELD);
    // origin/HEAD is a pointer to another remote branch, not a branch of its own.
    if (!refname || symref || type !== 'commit') continue;
    branches.push({
      name: refname.replace(/^refs\/(heads|remotes)\//, ''),
      sha,
      lastCommit: { sha, subject, author, date },
    });
  }
  return { head, branches };
}

/** A commit found by a scan, with the card ids its trailers name. */
export interface TrailerCommit {
  commit: GitCommitLink;
  cardIds: string[];
}

const LOG_FORMAT = [
  '%H',
  '%an',
  '%aI',
  '%s',
  ...LINK_TRAILERS.map((key) => `%(trailers:key=${key},valueonly,separator=%x2C)`),
].join('%x1f');
/** Only messages with a line that may be a link trailer: git skips every other commit itself. */
const TRAILER_LINE = `^(${LINK_TRAILERS.join('|')})[[:space:]]*:`;

/**
 * Every commit reachable from `include` but not from `exclude` whose message has a link trailer,
 * streamed to `onCommit`. The tips go through standard input, so thousands of branches fit.
 */
export function scanTrailers(
  repo: GitRepo,
  include: string[],
  exclude: string[],
  onCommit: (found: TrailerCommit) => void,
): Promise<void> {
  const input = [...include, ...exclude.map((sha) => `^${sha}`)].join('\n') + '\n';
  const args = [
    'log',
    '--stdin',
    '-z',
    `--format=${LOG_FORMAT}`,
    '--extended-regexp',
    '--regexp-ignore-case',
    `--grep=${TRAILER_LINE}`,
  ];
  return streamGit({ git: repo.git, cwd: repo.cwd, args, input }, '\u0000', (record) => {
    const [sha, author, date, subject, ...trailers] = record.replace(/^\n/, '').split(FIELD);
    if (!sha || !date) return;
    const cardIds = [...new Set(trailers.flatMap(cardIdsOfTrailer))];
    if (cardIds.length) onCommit({ commit: { sha, subject, author, date }, cardIds });
  });
}

/** Link commits reachable from `before` that none of `after` reaches any more (a branch deleted or rewritten). */
export async function vanishedCommits(repo: GitRepo, before: string[], after: string[]): Promise<string[]> {
  const input = [...before, ...after.map((sha) => `^${sha}`)].join('\n') + '\n';
  const args = ['rev-list', '--stdin', '--extended-regexp', '--regexp-ignore-case', `--grep=${TRAILER_LINE}`];
  const out = await runGit({ git: repo.git, cwd: repo.cwd, args, input });
  return out.split('\n').filter(Boolean);
}

/** Commits on `tip` that `head` does not have (ahead), and on `head` that `tip` does not have (behind). */
export async function aheadBehind(
  repo: GitRepo,
  head: string,
  tip: string,
): Promise<{ ahead: number; behind: number }> {
  const out = await runGit({
    git: repo.git,
    cwd: repo.cwd,
    args: ['rev-list', '--left-right', '--count', `${head}...${tip}`],
  });
  const [behind, ahead] = out.trim().split(/\s+/).map(Number);
  return { ahead: ahead || 0, behind: behind || 0 };
}
