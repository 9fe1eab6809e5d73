import type { Card } from '../../core/model';
import { branchNamesCard, type GitBranchLink, type GitLinks } from '../../core/gitLinkModel';
import { log } from '../../core/log';
import type { Workspace } from '../workspace';
import { aheadBehind, openRepo, readRefs, refsFingerprint, type GitRepo, type RefState } from './gitRepo';
import { TrailerIndex } from './trailerIndex';

/** How long "not in a git repository" is believed before git is asked again. */
const NO_REPO_RECHECK_MS = 5_000;
/**
 * File times tick coarsely (a few ms): a ref changed this shortly before its fingerprint was taken
 * may change again within the same tick, unseen. Such a fingerprint is not trusted for the next
 * read, which asks git again (as git itself treats an index entry as "racily clean").
 */
const RACY_MS = 50;

const noLinks = (): GitLinks => ({ branches: [], commits: [] });

/**
 * The git links of the cards of one workspace folder. Reads are served from memory: the refs and
 * the trailer index are refreshed only when the refs' fingerprint (files under the git dir, no
 * process) changes, and every request that arrives meanwhile waits for the same refresh instead of
 * starting its own. Outside a repository, or without git, every card has no links.
 */
export class GitLinkCache {
  private repo: GitRepo | null | undefined;
  private repoCheckedAt = 0;
  private fingerprint: string | null = null;
  private refs: RefState | null = null;
  readonly index = new TrailerIndex();
  private pending: Promise<void> | null = null;
  /** Ahead/behind per HEAD...tip pair, computed the first time a card with that branch is read. */
  private counts = new Map<string, Promise<{ ahead: number; behind: number }>>();
  private warned = false;

  constructor(
    private readonly root: string,
    private readonly git = 'git',
  ) {}

  /** `isCardId` tells a branch named after a longer id of another card from one named after this card. */
  async linksOf(cardId: string, isCardId: (id: string) => boolean): Promise<GitLinks> {
    try {
      await this.current();
      const { repo, refs } = this;
      if (!repo || !refs) return noLinks();
      const named = refs.branches.filter((branch) => branchNamesCard(branch.name, cardId, isCardId));
      const branches: GitBranchLink[] = await Promise.all(
        named.map(async (branch) => ({
          name: branch.name,
          ...(await this.countsOf(repo, refs.head, branch.sha)),
          lastCommit: branch.lastCommit,
        })),
      );
      branches.sort((a, b) => a.name.localeCompare(b.name));
      return { branches, commits: this.index.commitsOf(cardId) };
    } catch (error) {
      // Links are extra information: a git that fails must not fail the card.
      if (!this.warned)
        log.warn(`kanban: reading git links in ${this.root} failed; cards show none until it works again:`, error);
      this.warned = true;
      this.forget();
      // Asked again after a pause, not on the next request: a git that keeps failing must not be run for every read.
      this.repo = null;
      this.repoCheckedAt = Date.now();
      return noLinks();
    }
  }

  /** Whether a refresh (a check of the refs, and a scan when they moved) is running. */
  get refreshing(): boolean {
    return this.pending !== null;
  }

  /** Up to date with the refs as they are now; concurrent callers share one refresh. */
  private current(): Promise<void> {
    this.pending ??= this.refresh().finally(() => (this.pending = null));
    return this.pending;
  }

  private async refresh(): Promise<void> {
    if (this.repo === undefined || (this.repo === null && Date.now() - this.repoCheckedAt > NO_REPO_RECHECK_MS)) {
      this.repo = await openRepo(this.root, this.git);
      this.repoCheckedAt = Date.now();
    }
    if (!this.repo) return;
    const takenAt = Date.now();
    const fingerprint = await refsFingerprint(this.repo).catch(() => null);
    if (fingerprint === null) return this.forget(); // the repository went away: look for one again
    if (fingerprint.sign === this.fingerprint) return;
    const refs = await readRefs(this.repo);
    const tips = [...new Set([...(refs.head ? [refs.head] : []), ...refs.branches.map((branch) => branch.sha)])];
    await this.index.update(this.repo, tips);
    this.refs = refs;
    this.fingerprint = takenAt - fingerprint.newestMs > RACY_MS ? fingerprint.sign : null;
    this.warned = false;
    for (const key of this.counts.keys()) if (!key.startsWith(`${refs.head}...`)) this.counts.delete(key);
  }

  private countsOf(repo: GitRepo, head: string | null, tip: string): Promise<{ ahead: number; behind: number }> {
    if (!head) return Promise.resolve({ ahead: 0, behind: 0 });
    const key = `${head}...${tip}`;
    let counted = this.counts.get(key);
    if (!counted) {
      counted = aheadBehind(repo, head, tip);
      this.counts.set(key, counted);
      counted.catch(() => this.counts.delete(key));
    }
    return counted;
  }

  private forget(): void {
    this.repo = undefined;
    this.fingerprint = null;
    this.refs = null;
    this.index.clear();
    this.counts.clear();
  }
}

const caches = new WeakMap<Workspace, GitLinkCache>();

/** The workspace's git link cache, made on first use. */
export function gitLinkCacheOf(ws: Workspace): GitLinkCache {
  let cache = caches.get(ws);
  if (!cache) caches.set(ws, (cache = new GitLinkCache(ws.root)));
  return cache;
}

/** Branches named after the card and commits whose trailers name it. */
export function gitLinksOf(ws: Workspace, card: Card): Promise<GitLinks> {
  return gitLinkCacheOf(ws).linksOf(card.id, (id) => ws.index.hasId(id));
}
