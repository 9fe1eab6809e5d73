import { Type } from '@sinclair/typebox';
import { named } from './names';
import { count, text } from './parts';

/** What git knows of a card, as GET /tasks/{id}/git answers it (the rules are in core/gitLinkModel.ts). */

export const GitCommitSchema = named(
  'GitCommit',
  Type.Object(
    {
      sha: text('the full commit id (40 hex characters, or 64 in a SHA-256 repository)'),
      subject: text('first line of the commit message'),
      author: text('author name'),
      date: text('author date; ISO 8601'),
    },
    { description: 'a commit: its id, the first line of its message, its author and author date' },
  ),
);

export const GitBranchSchema = named(
  'GitBranch',
  Type.Object(
    {
      name: text('short name, such as kanban/<card id> (local) or origin/feature/<card id> (remote-tracking)'),
      ahead: count('commits on the branch that the current branch (HEAD) does not have'),
      behind: count('commits on the current branch (HEAD) that the branch does not have'),
      lastCommit: GitCommitSchema,
    },
    { description: 'a local or remote-tracking branch whose short name contains the card id' },
  ),
);

export const GitLinksSchema = named(
  'GitLinks',
  Type.Object(
    {
      branches: Type.Array(GitBranchSchema, { description: 'by name' }),
      commits: Type.Array(GitCommitSchema, { description: 'newest first (author date)' }),
    },
    {
      description:
        'what git knows of the card, read from the repository the workspace is in (both lists are empty outside one): branches named after it, ' +
        'and commits of the current branch or of any local or remote-tracking branch whose message has a trailer line Kanban: <card id> or Refs: <card id>',
    },
  ),
);
