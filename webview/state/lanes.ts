/**
 * Swimlanes: the board's rows, one per value of the field the cards are grouped by (`state.groupBy`:
 * `assignee`, `priority`, `labelGroup:<group>` or `metadata:<key path>`). Pure functions: which lane
 * a card is in, which lanes to draw, and the card fields that put a card into another lane.
 */
import { flattenMetadata, removeAtPath, setAtPath } from '../components/drawer/metadataPaths';
import { PRIORITIES, type Labels, type TaskView } from '../types';

/** The lane of cards without a value (no assignee, no label of the group, no such metadata key). */
export const NO_VALUE_LANE = '';

export type Grouping =
  | { kind: 'assignee' }
  | { kind: 'priority' }
  | { kind: 'labelGroup'; group: string }
  | { kind: 'metadata'; path: string };

export interface Lane {
  /** Stable id of the lane: the value as text (metadata values as JSON); NO_VALUE_LANE for none. */
  key: string;
  name: string;
}

export function parseGroupBy(groupBy: string | null): Grouping | null {
  if (groupBy === 'assignee' || groupBy === 'priority') return { kind: groupBy };
  if (groupBy?.startsWith('labelGroup:') && groupBy.length > 'labelGroup:'.length)
    return { kind: 'labelGroup', group: groupBy.slice('labelGroup:'.length) };
  if (groupBy?.startsWith('metadata:') && groupBy.trim().length > 'metadata:'.length)
    return { kind: 'metadata', path: groupBy.slice('metadata:'.length).trim() };
  return null;
}

/** What the Group by control and a lane's empty value are called. */
export function groupingName(grouping: Grouping): string {
  switch (grouping.kind) {
    case 'assignee':
      return 'Assignee';
    case 'priority':
      return 'Priority';
    case 'labelGroup':
      return `Label group: ${grouping.group}`;
    case 'metadata':
      return `Metadata: ${grouping.path}`;
  }
}

function noValueName(grouping: Grouping): string {
  switch (grouping.kind) {
    case 'assignee':
      return 'No assignee';
    case 'priority':
      return 'No priority';
    case 'labelGroup':
      return `No ${grouping.group} label`;
    case 'metadata':
      return `No ${grouping.path}`;
  }
}

function valueAtPath(metadata: Record<string, unknown>, path: string): unknown {
  let value: unknown = metadata;
  for (const part of path.split('.').map((p) => p.trim())) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function groupLabels(labels: Labels, group: string): string[] {
  return Object.keys(labels).filter((name) => labels[name].group === group);
}

/** The lane a card is in. A card with two labels of the group is in the lane of the first. */
export function laneKeyOf(grouping: Grouping, task: TaskView, labels: Labels): string {
  switch (grouping.kind) {
    case 'assignee':
      return task.assignee?.trim() || NO_VALUE_LANE;
    case 'priority':
      return task.priority ?? NO_VALUE_LANE;
    case 'labelGroup': {
      const inGroup = groupLabels(labels, grouping.group);
      return task.labels.find((label) => inGroup.includes(label)) ?? NO_VALUE_LANE;
    }
    case 'metadata': {
      const value = valueAtPath(task.metadata ?? {}, grouping.path);
      return value === undefined || value === null ? NO_VALUE_LANE : JSON.stringify(value);
    }
  }
}

function laneName(grouping: Grouping, key: string): string {
  if (key === NO_VALUE_LANE) return noValueName(grouping);
  if (grouping.kind !== 'metadata') return key;
  const value = JSON.parse(key) as unknown;
  return typeof value === 'string' ? value : key;
}

/**
 * The lanes to draw, in order: the values in use (priorities in their own order, a group's labels
 * as defined, the rest alphabetically), then the no-value lane last. Every priority and every label
 * of the group gets a lane even when empty, so a card can be dragged there.
 */
export function lanesOf(grouping: Grouping, tasks: TaskView[], labels: Labels): Lane[] {
  const used = new Set(tasks.map((task) => laneKeyOf(grouping, task, labels)));
  let keys: string[];
  if (grouping.kind === 'priority')
    keys = [...PRIORITIES, ...[...used].filter((k) => k && !PRIORITIES.includes(k as never)).sort()];
  else if (grouping.kind === 'labelGroup') keys = groupLabels(labels, grouping.group);
  else
    keys = [...used]
      .filter((key) => key !== NO_VALUE_LANE)
      .sort((a, b) => laneName(grouping, a).localeCompare(laneName(grouping, b), undefined, { numeric: true }));
  // A card always has a priority, so that lane appears only for a card that somehow has none.
  if (grouping.kind !== 'priority' || used.has(NO_VALUE_LANE)) keys.push(NO_VALUE_LANE);
  return keys.map((key) => ({ key, name: laneName(grouping, key) }));
}

/**
 * The card fields (as the update route takes them) that put `task` into lane `key`. Metadata keeps
 * the value's JSON type; the other keys of the card's metadata stay as they are.
 */
export function laneFields(grouping: Grouping, task: TaskView, key: string, labels: Labels): Record<string, unknown> {
  switch (grouping.kind) {
    case 'assignee':
      return { assignee: key === NO_VALUE_LANE ? null : key };
    case 'priority':
      return { priority: key };
    case 'labelGroup': {
      const inGroup = groupLabels(labels, grouping.group);
      const others = task.labels.filter((label) => !inGroup.includes(label));
      return { labels: key === NO_VALUE_LANE ? others : [...others, key] };
    }
    case 'metadata': {
      const metadata = task.metadata ?? {};
      return {
        metadata:
          key === NO_VALUE_LANE
            ? removeAtPath(metadata, grouping.path)
            : setAtPath(metadata, grouping.path, JSON.parse(key)),
      };
    }
  }
}

/** Metadata key paths in use on the board's cards, for the Group by control. */
export function metadataPathsOf(tasks: TaskView[]): string[] {
  const paths = new Set<string>();
  for (const task of tasks) for (const [path] of flattenMetadata(task.metadata ?? {})) paths.add(path);
  return [...paths].sort();
}

/** Label groups defined in the workspace, for the Group by control. */
export function labelGroupsOf(labels: Labels): string[] {
  return [
    ...new Set(
      Object.values(labels)
        .map((l) => l.group)
        .filter((g): g is string => Boolean(g)),
    ),
  ].sort();
}
