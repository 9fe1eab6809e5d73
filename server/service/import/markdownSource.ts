import * as yaml from 'js-yaml';
import type { ImportFormat, ImportNote, SourceFiles } from './importTypes';
import { requireShape } from './importPlan';

/** Pieces shared by the importers of tools that keep each task as a Markdown file with YAML frontmatter. */

export type Json = Record<string, any>;

const FRONTMATTER = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/;

/** The `files` of a `{"files": [{path, content}]}` body, or a ValidationError naming the format. */
export function filesOf(data: unknown, format: ImportFormat, holds: string): SourceFiles['files'] {
  const files = (data as SourceFiles | null)?.files;
  requireShape(
    Array.isArray(files) && files.every((f) => f && typeof f.path === 'string' && typeof f.content === 'string'),
    format,
    `{"files": [{"path", "content"}]}: ${holds}`,
  );
  return files.map((f) => ({ path: f.path.replace(/^\.\//, ''), content: f.content.replace(/\r\n?/g, '\n') }));
}

/** A task file's frontmatter and body; a file without parseable frontmatter is a note and null. */
export function frontmatterOf(
  file: { path: string; content: string },
  notes: ImportNote[],
): { front: Json; body: string } | null {
  const match = FRONTMATTER.exec(file.content);
  if (!match) {
    notes.push({ title: file.path, reason: 'no YAML frontmatter; left out' });
    return null;
  }
  try {
    // CORE_SCHEMA: a date stays the text the file holds instead of becoming a Date in local time.
    const front = yaml.load(match[1], { schema: yaml.CORE_SCHEMA });
    if (front && typeof front === 'object' && !Array.isArray(front)) return { front: front as Json, body: match[2] };
    notes.push({ title: file.path, reason: 'frontmatter is not a YAML map; left out' });
  } catch (error) {
    notes.push({
      title: file.path,
      reason: `frontmatter does not parse (${(error as Error).message.split('\n')[0]}); left out`,
    });
  }
  return null;
}

/** A YAML or JSON config file of the source, or null (with a note when it is there but unreadable). */
export function configOf(files: SourceFiles['files'], name: string, notes: ImportNote[]): Json | null {
  const file = files.find((f) => f.path === name);
  if (!file) return null;
  try {
    const config = yaml.load(file.content, { schema: yaml.CORE_SCHEMA });
    return config && typeof config === 'object' ? (config as Json) : null;
  } catch (error) {
    notes.push({ title: name, reason: `does not parse (${(error as Error).message.split('\n')[0]}); not used` });
    return null;
  }
}

export function textOf(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A YAML list of strings (or one string), empties dropped. */
export function listOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return items.map((item) => textOf(item)).filter((item): item is string => item !== undefined);
}

/** A date the source wrote as `YYYY-MM-DD` or `YYYY-MM-DD HH:mm`: its day. */
export function dayOf(value: unknown): string | undefined {
  return /^\d{4}-\d{2}-\d{2}/.exec(textOf(value) ?? '')?.[0];
}
