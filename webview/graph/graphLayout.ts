import dagre from '@dagrejs/dagre';
import { componentsOf, type CardGraph, type EdgeKind } from './graphModel';
import { layeredLayout, type Spacing } from './layeredLayout';

/** Every node is one size, so a layout needs no measuring of text; long titles are cut with "…". */
export const NODE_WIDTH = 190;
export const NODE_HEIGHT = 44;
/** Space between groups of cards that no link joins, and the widest a row of groups may get. */
const GAP = 36;
const MAX_ROW_WIDTH = 1600;
/**
 * Up to this many cards dagre lays the picture out (it draws it best); above, the plain layered
 * layout does, as dagre took seconds at a few hundred cards and ran out of memory at 2,000 in one
 * chain, while the plain one takes milliseconds (bench: ui-graph).
 */
export const DAGRE_LIMIT = 150;
const SPACING: Spacing = { nodeWidth: NODE_WIDTH, nodeHeight: NODE_HEIGHT, nodeGap: 16, rankGap: 56 };

export interface PlacedNode {
  id: string;
  /** Top-left corner. */
  x: number;
  y: number;
}

export interface PlacedEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  points: { x: number; y: number }[];
}

export interface GraphLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

interface Placed extends GraphLayout {
  /** Offset of this group in the whole picture, set when the groups are packed. */
  dx: number;
  dy: number;
}

/**
 * Left to right, what comes first on the left (a blocker before what it blocks, a parent before its
 * sub-cards). Each group of linked cards is laid out on its own and the groups are packed in rows,
 * by dagre up to DAGRE_LIMIT cards, else by the plain layered layout. Both break cycles themselves,
 * so odd data (a cycle the server should have refused) still gets a picture rather than a hang.
 */
export function layoutGraph(graph: CardGraph): GraphLayout {
  const groups = componentsOf(graph);
  const groupOf = new Map<string, number>();
  groups.forEach((ids, index) => ids.forEach((id) => groupOf.set(id, index)));
  const edgesOf = groups.map(() => [] as CardGraph['edges']);
  for (const edge of graph.edges) edgesOf[groupOf.get(edge.from) as number].push(edge);
  const layoutOne = graph.nodes.length <= DAGRE_LIMIT ? layoutGroup : plainGroup;
  const placed = groups.map((ids, index) => layoutOne({ nodes: ids, edges: edgesOf[index] }));
  // Largest first, so the rows fill evenly.
  const packed = [...placed].sort((a, b) => b.height - a.height || b.width - a.width);
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  let width = 0;
  for (const group of packed) {
    if (x > 0 && x + group.width > MAX_ROW_WIDTH) {
      y += rowHeight + GAP;
      x = 0;
      rowHeight = 0;
    }
    group.dx = x;
    group.dy = y;
    x += group.width + GAP;
    rowHeight = Math.max(rowHeight, group.height);
    width = Math.max(width, x - GAP);
  }
  const move = (group: Placed, p: { x: number; y: number }) => ({ x: p.x + group.dx, y: p.y + group.dy });
  return {
    nodes: placed.flatMap((group) => group.nodes.map((node) => ({ id: node.id, ...move(group, node) }))),
    edges: placed.flatMap((group) =>
      group.edges.map((edge) => ({ ...edge, points: edge.points.map((p) => move(group, p)) })),
    ),
    width,
    height: y + rowHeight,
  };
}

function plainGroup(graph: CardGraph): Placed {
  return { ...layeredLayout(graph, SPACING), dx: 0, dy: 0 };
}

function layoutGroup(graph: CardGraph): Placed {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: SPACING.nodeGap, ranksep: SPACING.rankGap, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const id of graph.nodes) g.setNode(id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  graph.edges.forEach((edge, index) => g.setEdge(edge.from, edge.to, {}, `${edge.kind}${index}`));
  dagre.layout(g);
  const nodes = graph.nodes.map((id) => {
    const at = g.node(id);
    return { id, x: at.x - NODE_WIDTH / 2, y: at.y - NODE_HEIGHT / 2 };
  });
  const edges = graph.edges.map((edge, index) => ({
    ...edge,
    points: (g.edge(edge.from, edge.to, `${edge.kind}${index}`)?.points ?? []).map((p: { x: number; y: number }) => ({
      x: p.x,
      y: p.y,
    })),
  }));
  const label = g.graph();
  return { nodes, edges, width: label.width ?? NODE_WIDTH, height: label.height ?? NODE_HEIGHT, dx: 0, dy: 0 };
}
