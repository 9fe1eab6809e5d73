import { useMemo, useState } from 'preact/hooks';
import { useAppState, useController } from '../context';
import { NODE_HEIGHT, NODE_WIDTH, layoutGraph, type PlacedEdge } from '../graph/graphLayout';
import { aroundCards, connectedGraph, isReadyCard, narrowGraph, type CardGraph } from '../graph/graphModel';
import { boardOrderIds } from '../state/tableRows';
import { filterIsActive, type TaskView } from '../types';
import { CardMenu } from './CardMenu';

/** Titles longer than this are cut with "…" (the whole title is the node's tooltip and label). */
const TITLE_CHARACTERS = 26;
const PADDING = 16;

function shortTitle(task: TaskView): string {
  const title = task.title || task.id;
  return title.length > TITLE_CHARACTERS ? `${title.slice(0, TITLE_CHARACTERS - 1)}…` : title;
}

function pathOf(edge: PlacedEdge): string {
  return edge.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
}

/** The same cards and links give the same key: a live change of a title does not lay out again. */
function shapeKey(graph: CardGraph): string {
  return `${graph.nodes.join('\n')}\n\n${graph.edges.map((e) => `${e.kind}:${e.from}>${e.to}`).join('\n')}`;
}

function Legend() {
  return (
    <ul class="graph-legend" aria-label="Legend">
      <li>
        <svg width="28" height="10" aria-hidden="true">
          <line class="graph-edge graph-edge-blocks" x1="0" y1="5" x2="28" y2="5" />
        </svg>
        blocks
      </li>
      <li>
        <svg width="28" height="10" aria-hidden="true">
          <line class="graph-edge graph-edge-parent" x1="0" y1="5" x2="28" y2="5" />
        </svg>
        sub-card of
      </li>
      <li>
        <span class="graph-swatch is-ready" aria-hidden="true" />
        ready to start
      </li>
      <li>
        <span class="graph-swatch is-done" aria-hidden="true" />
        done
      </li>
    </ul>
  );
}

/**
 * The board's dependencies as a picture: each card with a link is a node, `blockedBy` and `parent`
 * are arrows (left to right: what comes first on the left), the cards ready to start stand out. The
 * filter, and the board's search and filters, keep the matching cards and their neighbours. A click, or Enter on a
 * focused node, opens the card.
 */
export function GraphView() {
  const ctrl = useController();
  const { board, tasks, order, filter, matches } = useAppState();
  const [query, setQuery] = useState('');
  const whole = useMemo(
    () => (board ? connectedGraph(boardOrderIds(board, order, false, null), tasks) : { nodes: [], edges: [] }),
    [board, order, tasks],
  );
  // The top bar's search and filters narrow the graph as the graph's own filter does.
  const filtering = filterIsActive(filter) && matches !== null;
  const graph = useMemo(() => {
    const filtered = filtering ? aroundCards(whole, (id) => matches.has(id)) : whole;
    return narrowGraph(filtered, tasks, query);
  }, [whole, tasks, query, filtering, matches]);
  const key = shapeKey(graph);
  const layout = useMemo(() => layoutGraph(graph), [key]);
  if (!board) return null;
  const lastColumn = board.columns[board.columns.length - 1]?.id;

  const openFrom = (target: EventTarget | null) => {
    const id = (target as Element | null)?.closest?.('[data-card-id]')?.getAttribute('data-card-id');
    if (id && tasks[id]) ctrl.store.set({ openTaskId: id });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    openFrom(event.target);
  };

  return (
    <div class="view-pane" data-testid="graph-view">
      <div class="graph-toolbar">
        <input
          type="search"
          class="input graph-filter"
          placeholder="Filter the graph by title or id"
          aria-label="Filter the graph"
          data-testid="graph-filter"
          value={query}
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        />
        <span class="graph-count" data-testid="graph-count">
          {graph.nodes.length} cards, {graph.edges.length} links
        </span>
        <Legend />
      </div>
      <div class="graph-scroll">
        {graph.nodes.length === 0 ? (
          <div class="graph-empty">
            {query || filtering
              ? 'No linked card matches the filter.'
              : 'No card on this board waits for another or has sub-cards yet.'}
          </div>
        ) : (
          <svg
            class="graph-canvas"
            width={layout.width + PADDING * 2}
            height={layout.height + PADDING * 2}
            role="group"
            aria-label={`${board.name}: ${graph.nodes.length} linked cards`}
            onClick={(e) => openFrom(e.target)}
            onKeyDown={onKeyDown}
          >
            <defs>
              <marker
                id="graph-arrow"
                viewBox="0 0 10 10"
                refX="9"
                refY="5"
                markerWidth="7"
                markerHeight="7"
                orient="auto"
              >
                <path d="M0,0 L10,5 L0,10 z" class="graph-arrow-head" />
              </marker>
            </defs>
            <g transform={`translate(${PADDING},${PADDING})`}>
              {layout.edges.map((edge) => (
                <path
                  key={`${edge.kind}:${edge.from}>${edge.to}`}
                  class={`graph-edge graph-edge-${edge.kind}`}
                  d={pathOf(edge)}
                  marker-end="url(#graph-arrow)"
                  data-from={edge.from}
                  data-to={edge.to}
                  data-kind={edge.kind}
                />
              ))}
              {layout.nodes.map((node) => {
                const task = tasks[node.id];
                if (!task) return null;
                const done = task.status === lastColumn;
                const ready = isReadyCard(task, lastColumn);
                const state = done ? 'done' : ready ? 'ready' : task.openBlockers > 0 ? 'blocked' : 'open';
                return (
                  <g
                    key={node.id}
                    class={`graph-node is-${state}`}
                    transform={`translate(${node.x},${node.y})`}
                    data-card-id={node.id}
                    data-state={state}
                    // Lower case: an SVG element takes its attributes as written, and only `tabindex` makes it focusable.
                    {...{ tabindex: 0 }}
                    role="button"
                    aria-label={`${task.title || task.id}, ${state === 'open' ? 'not ready' : state}`}
                  >
                    <title>{task.title || task.id}</title>
                    <rect width={NODE_WIDTH} height={NODE_HEIGHT} rx="8" />
                    <text x="12" y={NODE_HEIGHT / 2} dominant-baseline="central">
                      {shortTitle(task)}
                    </text>
                  </g>
                );
              })}
            </g>
          </svg>
        )}
      </div>
      <CardMenu />
    </div>
  );
}
