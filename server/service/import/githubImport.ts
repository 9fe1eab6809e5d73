import type { ImportedCard, ParsedSource } from './importTypes';
import { requireShape } from './importPlan';

/**
 * A GitHub issues export: the JSON array of
 * `gh issue list --state all --json number,title,body,labels,assignees,state,milestone,createdAt`
 * (`url` and `comments` are read too when asked for). Closed issues go to the board's last column.
 * Task lists in the body (`- [ ] x`, `* [x] y`) already are the card checklist format.
 */

type Json = Record<string, any>;

/** `owner/repo` from an issue URL, when the export has one. */
function repoOf(issue: Json): string | undefined {
  const match = typeof issue.url === 'string' ? /github\.com\/([^/]+\/[^/]+)\/issues\/\d+/.exec(issue.url) : null;
  return match?.[1];
}

/** `* [ ]` and `+ [x]` task items become `- [ ]` / `- [x]`, the one checklist form the board reads. */
export function normalizeTaskList(body: string): string {
  return body.replace(
    /^(\s*)[*+] \[( |x|X)\]/gm,
    (_all, indent: string, mark: string) => `${indent}- [${mark.toLowerCase()}]`,
  );
}

function names(list: unknown, key: string): string[] {
  return Array.isArray(list)
    ? list
        .map((item) => (typeof item === 'string' ? item : item?.[key]))
        .filter((v): v is string => typeof v === 'string' && v !== '')
    : [];
}

export function parseGithub(data: unknown, source: string): ParsedSource {
  requireShape(
    Array.isArray(data) &&
      data.every((i) => i && typeof i === 'object' && typeof i.number === 'number' && typeof i.title === 'string'),
    'github',
    'the JSON array `gh issue list --json number,title,body,labels,assignees,state,milestone,createdAt` prints',
  );
  const cards: ImportedCard[] = (data as Json[]).map((issue) => {
    const assignees = names(issue.assignees, 'login');
    const metadata: Record<string, unknown> = {};
    if (issue.milestone?.title) metadata.milestone = issue.milestone.title;
    if (typeof issue.createdAt === 'string') metadata.githubCreatedAt = issue.createdAt;
    if (assignees.length > 1) metadata.assignees = assignees;
    if (typeof issue.url === 'string') metadata.githubUrl = issue.url;
    return {
      importedFrom: `github:${repoOf(issue) ?? source}#${issue.number}`,
      title: issue.title,
      body: normalizeTaskList(typeof issue.body === 'string' ? issue.body : ''),
      done: String(issue.state).toUpperCase() === 'CLOSED',
      assignee: assignees[0],
      labels: names(issue.labels, 'name'),
      metadata,
      comments: (Array.isArray(issue.comments) ? issue.comments : []).map((c: Json) => ({
        author: c?.author?.login ?? 'unknown',
        content: typeof c?.body === 'string' ? c.body : '',
        created: c?.createdAt,
      })),
    };
  });
  return { cards, notes: [] };
}
