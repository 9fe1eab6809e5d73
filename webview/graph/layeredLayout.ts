import type { CardGraph } from './graphModel';

export interface Spacing {
  nodeWidth: number;
  nodeHeight: number;
  /** Between two cards of one rank (vertical). */
  nodeGap: number;
  /** Between two ranks (horizontal). */
  rankGap: number;
}

export interface GroupPlacement {
  nodes: { id: string; x: number; y: number }[];
  edges: (CardGraph['edges'][number] & { points: { x: number; y: number }[] })[];
  width: number;
  height: number;
}

/**
 * Ranks: each card one rank right of the furthest card it depends on (longest path, Kahn's order).
 * Cards left over are on a cycle (odd data: the server refuses cycles): the first of them is taken
 * as a start, which drops the links into it, so every card gets a rank and the loop always ends.
 */
function ranksOf(graph: CardGraph): Map<string, number> {
  const incoming = new Map(graph.nodes.map((id) => [id, 0]));
  const outgoing = new Map<string, string[]>(graph.nodes.map((id) => [id, []]));
  for (const edge of graph.edges) {
    incoming.set(edge.to, (incoming.get(edge.to) ?? 0) + 1);
    outgoing.get(edge.from)?.push(edge.to);
  }
  const rank = new Map<string, number>();
  const done = new Set<string>();
  const queue = graph.nodes.filter((id) => incoming.get(id) === 0);
  let next = 0;
  for (;;) {
    while (next < queue.length) {
      const id = queue[next++];
      if (done.has(id)) continue;
      done.add(id);
      const mine = rank.get(id) ?? 0;
      rank.set(id, mine);
      for (const to of outgoing.get(id) ?? []) {
        if (done.has(to)) continue;
        rank.set(to, Math.max(rank.get(to) ?? 0, mine + 1));
        const left = (incoming.get(to) ?? 1) - 1;
        incoming.set(to, left);
        if (left === 0) queue.push(to);
      }
    }
    const stuck = graph.nodes.find((id) => !done.has(id));
    if (stuck === undefined) return rank;
    queue.push(stuck);
  }
}

/**
 * A plain layered layout, left to right, for graphs too big for dagre to lay out at once (its cost
 * grows much faster than the card count): ranks by longest path, and within a rank, two sweeps that
 * put each card near the average place of the cards it depends on, which untangles most crossings.
 * Linear in the cards and links but for the sorts.
 */
export function layeredLayout(graph: CardGraph, spacing: Spacing): GroupPlacement {
  const rank = ranksOf(graph);
  const layers: string[][] = [];
  for (const id of graph.nodes) (layers[rank.get(id) as number] ??= []).push(id);
  const predecessors = new Map<string, string[]>(graph.nodes.map((id) => [id, []]));
  for (const edge of graph.edges) predecessors.get(edge.to)?.push(edge.from);
  const place = new Map<string, number>();
  layers.forEach((layer) => layer.forEach((id, i) => place.set(id, i)));
  for (let sweep = 0; sweep < 2; sweep++) {
    for (const layer of layers.slice(1)) {
      const wanted = new Map<string, number>();
      for (const id of layer) {
        const from = (predecessors.get(id) ?? []).filter((p) => (rank.get(p) as number) < (rank.get(id) as number));
        wanted.set(
          id,
          from.length
            ? from.reduce((sum, p) => sum + (place.get(p) as number), 0) / from.length
            : (place.get(id) as number),
        );
      }
      layer.sort((a, b) => (wanted.get(a) as number) - (wanted.get(b) as number));
      layer.forEach((id, i) => place.set(id, i));
    }
  }
  const { nodeWidth, nodeHeight, nodeGap, rankGap } = spacing;
  const xOf = (id: string) => (rank.get(id) as number) * (nodeWidth + rankGap);
  const yOf = (id: string) => (place.get(id) as number) * (nodeHeight + nodeGap);
  const tallest = Math.max(...layers.map((layer) => layer.length));
  return {
    nodes: graph.nodes.map((id) => ({ id, x: xOf(id), y: yOf(id) })),
    edges: graph.edges.map((edge) => ({
      ...edge,
      points: [
        { x: xOf(edge.from) + nodeWidth, y: yOf(edge.from) + nodeHeight / 2 },
        { x: xOf(edge.to), y: yOf(edge.to) + nodeHeight / 2 },
      ],
    })),
    width: layers.length * (nodeWidth + rankGap) - rankGap,
    height: tallest * (nodeHeight + nodeGap) - nodeGap,
  };
}
