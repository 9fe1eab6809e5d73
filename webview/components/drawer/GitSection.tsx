import { useEffect, useState } from 'preact/hooks';
import { useController } from '../../context';
import { dateTime } from '../../format';
import type { GitLinks, TaskView } from '../../types';

/**
 * What git says of the card, read only: the branches named after it, ahead/behind the current
 * branch, and the commits whose `Kanban:` or `Refs:` trailer names it. Plain text (the full sha,
 * author and date are in a commit's tooltip); nothing at all when git has nothing, which is the
 * case outside a repository.
 */
export function GitSection({
  task,
  version,
}: {
  task: TaskView;
  /** Changes whenever the card changed elsewhere. */ version: number;
}) {
  const ctrl = useController();
  const key = `${task.boardId}/${task.id}`;
  // Kept with the card they are of, so another card's links never show while this one's load.
  const [loaded, setLoaded] = useState<{ key: string; links: GitLinks } | null>(null);

  useEffect(() => {
    let current = true;
    void ctrl.api.getGitLinks(task.boardId, task.id).then(
      (links) => current && setLoaded({ key, links }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [key, version]);

  const links = loaded?.key === key ? loaded.links : null;
  if (!links || (links.branches.length === 0 && links.commits.length === 0)) return null;
  return (
    <section class="drawer-section drawer-git" aria-label="Git" data-testid="git-section">
      <h3 class="section-title">Git</h3>
      {links.branches.length > 0 && (
        <ul class="git-list" data-testid="git-branches">
          {links.branches.map((branch) => (
            <li
              key={branch.name}
              class="git-row"
              title={`${branch.ahead} ahead, ${branch.behind} behind the current branch; last commit ${branch.lastCommit.sha.slice(0, 7)} ${branch.lastCommit.subject}`}
            >
              <span class="git-branch">{branch.name}</span>
              <span class="git-counts">
                ↑{branch.ahead} ↓{branch.behind}
              </span>
            </li>
          ))}
        </ul>
      )}
      {links.commits.length > 0 && (
        <ul class="git-list" data-testid="git-commits">
          {links.commits.map((commit) => (
            <li key={commit.sha} class="git-row" title={`${commit.sha}\n${commit.author}, ${dateTime(commit.date)}`}>
              <code class="git-sha">{commit.sha.slice(0, 7)}</code>
              <span class="git-subject">{commit.subject}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
