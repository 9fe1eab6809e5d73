import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { GitLinkCache, gitLinkCacheOf } from '../../server/service/git/gitLinks';
import { createTask, failsWith, okData } from '../helpers/envelope';
import { commit, fastImport, fastImportStream, git, initRepo } from '../helpers/gitRepos';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { waitUntil } from '../helpers/waiting';

interface Links {
  branches: {
    name: string;
    ahead: number;
    behind: number;
    lastCommit: { sha: string; subject: string; author: string; date: string };
  }[];
  commits: { sha: string; subject: string; author: string; date: string }[];
}

async function linksOf(server: TestServer, id: string, board?: string): Promise<Links> {
  const links = okData<Links>(
    await server.api('GET', `${board ? `/api/boards/${board}` : '/api'}/tasks/${encodeURIComponent(id)}/git`),
  );
  assertShape(links);
  return links;
}

/** Exactly the documented fields (the OpenAPI schema is open to new ones; an answer must not carry undocumented ones). */
function assertShape(links: Links): void {
  assert.deepEqual(Object.keys(links).sort(), ['branches', 'commits']);
  const commitKeys = ['author', 'date', 'sha', 'subject'];
  for (const branch of links.branches) {
    assert.deepEqual(Object.keys(branch).sort(), ['ahead', 'behind', 'lastCommit', 'name']);
    assert.deepEqual(Object.keys(branch.lastCommit).sort(), commitKeys);
  }
  for (const commit of links.commits) assert.deepEqual(Object.keys(commit).sort(), commitKeys);
}

const branchRows = (links: Links) => links.branches.map((b) => [b.name, b.ahead, b.behind]);
const shas = (links: Links) => links.commits.map((c) => c.sha);

describe('API git links: the branches and commits of a card, read from real git', function () {
  this.timeout(60_000);
  let server: TestServer;
  let root: string;

  beforeEach(async () => {
    root = await makeTempDir('kanban-git-');
    await initRepo(root);
    server = await startTestServer({ root });
  });
  afterEach(() => server.close());

  it('when branches are named after the card, then each is listed, local and remote-tracking, with ahead and behind counted against HEAD', async () => {
    const card = await createTask(server, 'Fix login');
    const other = await createTask(server, 'Write docs');
    await commit(root, 'Start');
    await git(root, ['switch', '--quiet', '--create', `kanban/${card.id}`]);
    await commit(root, 'Find the bug');
    const tip = await commit(root, 'Fix the bug');
    await git(root, ['switch', '--quiet', 'main']);
    await commit(root, 'Meanwhile on main');
    await git(root, ['update-ref', `refs/remotes/origin/feature/${card.id}`, tip]);
    // origin/HEAD only points at a branch: it is not one more.
    await git(root, ['symbolic-ref', 'refs/remotes/origin/HEAD', `refs/remotes/origin/feature/${card.id}`]);
    await git(root, ['branch', 'unrelated']);
    await git(root, ['branch', `kanban/${other.id}`]);

    const links = await linksOf(server, card.id);
    assert.deepEqual(branchRows(links), [
      [`kanban/${card.id}`, 2, 1],
      [`origin/feature/${card.id}`, 2, 1],
    ]);
    const last = links.branches[0].lastCommit;
    assert.deepEqual([last.sha, last.subject, last.author], [tip, 'Fix the bug', 'Ada Lovelace']);
    assert.ok(
      Number.isFinite(Date.parse(last.date)) && /^\d{4}-\d{2}-\d{2}T/.test(last.date),
      `an ISO 8601 date: ${last.date}`,
    );
    assert.deepEqual(links.commits, []);
    assert.deepEqual(await linksOf(server, card.id, 'default'), links, 'the board twin answers the same');
    assert.deepEqual(branchRows(await linksOf(server, other.id)), [[`kanban/${other.id}`, 0, 0]]);
  });

  it('when commit messages have a Kanban: or Refs: trailer naming the card, then those commits are listed newest first, and other mentions are not', async () => {
    const card = await createTask(server, 'Fix login');
    const other = await createTask(server, 'Write docs');
    const first = await commit(root, `Fix the session timeout\n\nThe cookie expired early.\n\nKanban: ${card.id}`);
    const both = await commit(root, `Share the login helper\n\nRefs: ${other.id}, ${card.id}`);
    await commit(root, `Mention ${card.id} in the subject\n\nAnd in the body: ${card.id}`);
    // Not the last paragraph, so not a trailer.
    await commit(root, `Talk about it\n\nKanban: ${card.id}\n\nMore text after it.`);
    await git(root, ['switch', '--quiet', '--create', 'wip']);
    const onBranch = await commit(root, `Try another way\n\nkanban: ${card.id.toUpperCase()}`);
    await git(root, ['switch', '--quiet', 'main']);

    const links = await linksOf(server, card.id);
    assert.deepEqual(shas(links), [onBranch, both, first]);
    assert.deepEqual(
      links.commits.map((c) => c.subject),
      ['Try another way', 'Share the login helper', 'Fix the session timeout'],
    );
    assert.deepEqual(
      links.commits.map((c) => c.author),
      ['Ada Lovelace', 'Ada Lovelace', 'Ada Lovelace'],
    );
    assert.deepEqual(links.branches, [], 'no branch is named after the card');
    assert.deepEqual(shas(await linksOf(server, other.id)), [both]);
  });

  it('when a commit is made after the first answer, then the next answer has it, from a scan of the new commits only', async () => {
    const card = await createTask(server, 'Fix login');
    const first = await commit(root, `One\n\nKanban: ${card.id}`);
    assert.deepEqual(shas(await linksOf(server, card.id)), [first]);
    const second = await commit(root, `Two\n\nRefs: ${card.id}`);
    assert.deepEqual(shas(await linksOf(server, card.id)), [second, first]);
    await git(root, ['branch', `kanban/${card.id}`, first]);
    assert.deepEqual(branchRows(await linksOf(server, card.id)), [[`kanban/${card.id}`, 0, 1]]);
    // Two scans after the first: the new commit, then the new branch's tip (with nothing new behind it).
    assert.deepEqual(gitLinkCacheOf(server.running.workspace).index.scans, { full: 1, incremental: 2 });
  });

  it('when history is rewritten, then commits that no branch reaches any more are no longer listed', async () => {
    const card = await createTask(server, 'Fix login');
    const kept = await commit(root, `Keep\n\nKanban: ${card.id}`);
    const dropped = await commit(root, `Drop\n\nKanban: ${card.id}`);
    assert.deepEqual(shas(await linksOf(server, card.id)), [dropped, kept]);
    await git(root, ['update-ref', 'refs/heads/main', kept]);
    assert.deepEqual(shas(await linksOf(server, card.id)), [kept]);
    await git(root, ['branch', 'rescued', dropped]);
    assert.deepEqual(shas(await linksOf(server, card.id)), [dropped, kept], 'reachable again from another branch');
  });

  it('when the workspace is a linked worktree, then ahead/behind count against its own HEAD and its new commits are seen', async () => {
    await commit(root, 'Start');
    const worktree = await makeTempDir('kanban-git-worktree-');
    await git(root, ['worktree', 'add', '--quiet', '-b', 'work', worktree]);
    const inWorktree = await startTestServer({ root: worktree });
    try {
      const card = await createTask(inWorktree, 'Fix login');
      const first = await commit(worktree, `Fix it\n\nKanban: ${card.id}`);
      await git(root, ['branch', `kanban/${card.id}`, 'main']);
      const links = await linksOf(inWorktree, card.id);
      assert.deepEqual([shas(links), branchRows(links)], [[first], [[`kanban/${card.id}`, 0, 1]]]);
      const second = await commit(worktree, `Fix it again\n\nKanban: ${card.id}`);
      const later = await linksOf(inWorktree, card.id);
      assert.deepEqual([shas(later), branchRows(later)], [[second, first], [[`kanban/${card.id}`, 0, 2]]]);
    } finally {
      await inWorktree.close();
    }
  });

  it('when several cards are read at once before any scan, then they all wait for one scan of the history', async () => {
    const cards = [await createTask(server, 'One'), await createTask(server, 'Two'), await createTask(server, 'Three')];
    const made = [];
    for (const card of cards) made.push(await commit(root, `Work on ${card.title}\n\nKanban: ${card.id}`));
    const answers = await Promise.all(cards.map((card) => linksOf(server, card.id)));
    assert.deepEqual(
      answers.map(shas),
      made.map((sha) => [sha]),
    );
    assert.deepEqual(gitLinkCacheOf(server.running.workspace).index.scans, { full: 1, incremental: 0 });
  });

  it('when the card does not exist, then 404, as on the other card routes', async () => {
    failsWith(await server.api('GET', '/api/tasks/no-such-card-2026-11-28/git'), 404);
    failsWith(await server.api('GET', '/api/boards/default/tasks/no-such-card-2026-11-28/git'), 404);
    failsWith(await server.api('GET', '/api/boards/no-such-board/tasks/anything/git'), 404);
  });

  it('when git cannot run at all, then a card has empty lists, not an error', async () => {
    const card = await createTask(server, 'Fix login');
    await commit(root, `One\n\nKanban: ${card.id}`);
    const cache = new GitLinkCache(root, path.join(root, 'no-such-git'));
    assert.deepEqual(await cache.linksOf(card.id, () => true), { branches: [], commits: [] });
  });
});

describe('API git links outside a git repository', function () {
  this.timeout(60_000);

  it('when the workspace is in no git repository, then a card has empty lists, not an error', async () => {
    const server = await startTestServer();
    try {
      await assert.rejects(
        git(server.root, ['rev-parse', '--git-dir']),
        'the temporary folder must be in no repository',
      );
      const card = await createTask(server, 'Fix login');
      assert.deepEqual(await linksOf(server, card.id), { branches: [], commits: [] });
      assert.deepEqual(await linksOf(server, card.id, 'default'), { branches: [], commits: [] });
    } finally {
      await server.close();
    }
  });
});

describe('API git links over a long history', function () {
  this.timeout(180_000);
  const COMMITS = 50_000;

  it('when the first scan reads 50,000 commits, then a list request sent during it answers before the scan does', async () => {
    const root = await makeTempDir('kanban-git-long-');
    await initRepo(root);
    const server = await startTestServer({ root });
    try {
      const card = await createTask(server, 'Fix login');
      // One commit in five has a trailer; one in 500 names this card, the others name 97 other ids.
      const message = (i: number) =>
        i % 5 ? `Change ${i}\n` : `Change ${i}\n\nKanban: ${i % 500 === 0 ? card.id : `other-${i % 97}-2026-11-28`}\n`;
      await fastImport(
        root,
        fastImportStream('main', COMMITS, message, [{ ref: `refs/heads/kanban/${card.id}`, at: COMMITS - 1_000 }]),
      );

      const cache = gitLinkCacheOf(server.running.workspace);
      const order: string[] = [];
      const scan = server.api('GET', `/api/tasks/${card.id}/git`).then((answer) => (order.push('git links'), answer));
      await waitUntil(() => cache.refreshing, 10_000, 'the first scan to start', 1);
      const list = await server.api('GET', '/api/tasks?limit=1');
      order.push('list');
      const links = okData<Links>(await scan);

      assert.deepEqual(order, ['list', 'git links']);
      assert.equal(okData<unknown[]>(list).length, 1);
      assert.equal(links.commits.length, COMMITS / 500);
      assert.deepEqual(branchRows(links), [[`kanban/${card.id}`, 0, 1_000]]);
      assert.deepEqual(cache.index.scans, { full: 1, incremental: 0 });
    } finally {
      await server.close();
    }
  });
});
