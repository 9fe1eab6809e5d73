import { DELETED_STATUS, type TaskView } from '../types';

/**
 * What the graph view draws, as pure data: the cards that take part in a link (blockedBy or
 * parent) on the board shown, and those links. A card with no link is left out, so a board of
 * thousands of loose cards draws only the few that depend on each other.
 */

/** `blocks`: `from` must be done before `to` can start. `parent`: `to` is a sub-card of `from`. */
export type EdgeKind = 'blocks' | 'parent';

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

export interface CardGraph {
  /** In board order. */
  nodes: string[];
  edges: GraphEdge[];
}

/** The links among `ids` (a link to a card not among them, on another board or deleted, is left out). */
export function linksAmong(ids: readonly string[], tasks: Readonly<Record<string, TaskView>>): GraphEdge[] {
  const present = new Set(ids);
  const edges: GraphEdge[] = [];
  for (const id of ids) {
    const task = tasks[id];
    for (const blocker of task.blockedBy ?? []) {
      if (blocker !== id && present.has(blocker)) edges.push({ from: blocker, to: id, kind: 'blocks' });
    }
    if (task.parent && task.parent !== id && present.has(task.parent))
      edges.push({ from: task.parent, to: id, kind: 'parent' });
  }
  return edges;
}

/** The cards of the board (deleted ones left out) that have at least one link, and the links. */
export function connectedGraph(ids: readonly string[], tasks: Readonly<Record<string, TaskView>>): CardGraph {
  const live = ids.filter((id) => tasks[id] && tasks[id].status !== DELETED_STATUS);
  const edges = linksAmong(live, tasks);
  const linked = new Set<string>();
  for (const edge of edges) linked.add(edge.from).add(edge.to);
  return { nodes: live.filter((id) => linked.has(id)), edges };
}

/**
 * The part of `graph` around the cards whose title or id contains `query` (any case): those cards
 * and their direct neighbours, with the links among them. An empty query keeps the whole graph.
 */
export function narrowGraph(graph: CardGraph, tasks: Readonly<Record<string, TaskView>>, query: string): CardGraph {
  const wanted = query.trim().toLowerCase();
  if (!wanted) return graph;
  return aroundCards(graph, (id) => `${tasks[id].title}\n${id}`.toLowerCase().includes(wanted));
}

/** The cards `keep` picks, their direct neighbours, and the links among them. */
export function aroundCards(graph: CardGraph, keep: (id: string) => boolean): CardGraph {
  const matching = new Set(graph.nodes.filter(keep));
  const kept = new Set(matching);
  for (const edge of graph.edges) {
    if (matching.has(edge.from)) kept.add(edge.to);
    if (matching.has(edge.to)) kept.add(edge.from);
  }
  return {
    nodes: graph.nodes.filter((id) => kept.has(id)),
    edges: graph.edges.filter((edge) => kept.has(edge.from) && kept.has(edge.to)),
  };
}

/**
 * Ready to start, as the list route's `ready=true` says: no open blocker and not in the board's last
 * column (done). The graph marks these, the frontier of the work that can start now.
 */
export function isReadyCard(task: TaskView, lastColumn: string | undefined): boolean {
  return task.status !== DELETED_STATUS && task.status !== lastColumn && task.openBlockers === 0;
}

/** The graph's cards split into groups that no link joins (union-find), each in board order. */
export function componentsOf(graph: CardGraph): string[][] {
  const root = new Map<string, string>(graph.nodes.map((id) => [id, id]));
  const find = (id: string): string => {
    let at = id;
    while (root.get(at) !== at) at = root.get(at) as string;
    root.set(id, at);
    return at;
  };
  for (const edge of graph.edges) root.set(find(edge.from), find(edge.to));
  const groups = new Map<string, string[]>();
  for (const id of graph.nodes) {
    const key = find(id);
    const group = groups.get(key);
    if (group) group.push(id);
    else groups.set(key, [id]);
  }
  return [...groups.values()];
}
