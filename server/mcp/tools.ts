import type { RouteDef } from '../api/route';
import { everydayTools } from './everydayTools';
import { checklistTools } from './checklistTools';
import { archiveTools } from './archiveTools';
import { agentTools } from './agentTools';
import { metricsTools } from './metricsTools';
import { routeTool } from './routeTools';
import { routeKey, type ToolDef } from './tool';
import { toolsetOf } from './toolsets';

/** `Board actions` is `board-actions`. */
const kebab = (tag: string | undefined) => tag?.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** Every tool: the everyday ones, then one generated per route they do not cover. */
export function buildTools(routes: RouteDef[]): ToolDef[] {
  const everyday = [
    ...everydayTools(routes),
    ...checklistTools(),
    ...archiveTools(),
    ...agentTools(),
    ...metricsTools(),
  ];
  const covered = new Set(everyday.flatMap((t) => t.routes));
  const tools = [...everyday, ...routes.filter((r) => !covered.has(routeKey(r))).map(routeTool)];
  // Two routes that derive the same name keep both tools: the later one says its method.
  const seen = new Set<string>();
  const tagOf = new Map(routes.map((r) => [routeKey(r), r.tag]));
  for (const t of tools) {
    if (seen.has(t.name)) t.name = `${t.name}_${t.routes[0].split(' ')[0]}`;
    seen.add(t.name);
    t.toolset = toolsetOf(t, kebab(tagOf.get(t.routes[0])));
  }
  return tools;
}
