import type { GitCommitLink } from '../../core/gitLinkModel';
import { scanTrailers, vanishedCommits, type GitRepo } from './gitRepo';

/**
 * Card id -> the commits whose trailers name it, over every commit reachable from a set of tips
 * (HEAD and the branches). The first update scans the whole history; later ones scan only what the
 * new tips add (`git log new ^old`) and drop what the tips no longer reach (a branch deleted,
 * rewritten or reset), so a commit costs one scan, whenever it arrives.
 */
export class TrailerIndex {
  private tips = new Set<string>();
  private readonly byCard = new Map<string, GitCommitLink[]>();
  private readonly cardsOfCommit = new Map<string, string[]>();
  /** How the index was brought up to date so far, for tests and the benchmark. */
  readonly scans = { full: 0, incremental: 0 };

  /** Brings the index to these tips. Readers keep seeing the old index until it has finished. */
  async update(repo: GitRepo, tips: string[]): Promise<void> {
    const next = new Set(tips);
    const added = [...next].filter((sha) => !this.tips.has(sha));
    const gone = [...this.tips].filter((sha) => !next.has(sha));
    if (added.length === 0 && gone.length === 0) return;
    const full = this.tips.size === 0;
    const vanished = gone.length && next.size ? await vanishedCommits(repo, gone, [...next]) : [];
    const found: { commit: GitCommitLink; cardIds: string[] }[] = [];
    if (added.length) await scanTrailers(repo, added, [...this.tips], (commit) => found.push(commit));
    // Applied at once, after git has answered: a failed scan leaves the index as it was.
    if (next.size === 0) this.clear();
    for (const sha of vanished) this.drop(sha);
    for (const { commit, cardIds } of found) this.add(commit, cardIds);
    this.tips = next;
    if (full) this.scans.full++;
    else this.scans.incremental++;
  }

  /** The card's commits, newest first. */
  commitsOf(cardId: string): GitCommitLink[] {
    const commits = this.byCard.get(cardId);
    if (!commits) return [];
    return [...commits].sort((a, b) =>
      a.date === b.date ? a.sha.localeCompare(b.sha) : Date.parse(b.date) - Date.parse(a.date),
    );
  }

  clear(): void {
    this.tips = new Set();
    this.byCard.clear();
    this.cardsOfCommit.clear();
  }

  private add(commit: GitCommitLink, cardIds: string[]): void {
    if (this.cardsOfCommit.has(commit.sha)) return;
    this.cardsOfCommit.set(commit.sha, cardIds);
    for (const id of cardIds) {
      const list = this.byCard.get(id);
      if (list) list.push(commit);
      else this.byCard.set(id, [commit]);
    }
  }

  private drop(sha: string): void {
    const cardIds = this.cardsOfCommit.get(sha);
    if (!cardIds) return;
    this.cardsOfCommit.delete(sha);
    for (const id of cardIds) {
      const rest = (this.byCard.get(id) ?? []).filter((commit) => commit.sha !== sha);
      if (rest.length) this.byCard.set(id, rest);
      else this.byCard.delete(id);
    }
  }
}
