import type { JsonSchema } from '../api/route';
import { flowMetricsResponseSchema } from '../api/responseSchemas';
import { metricsText } from '../core/metricsText';
import type { FlowMetrics } from '../core/shapes/metrics';
import { input } from './everydayTools';
import { outline } from './outputSchemas';
import { annotationsOf, BOARD_ARG } from './routeTools';
import { callApi, onBoard, queryString, structuredResult, type ToolDef } from './tool';

/**
 * The board's flow metrics: the summary as text (durations as "3d 4h"), the whole answer, exact
 * milliseconds and every card, as structured content. Its output schema says only "an object":
 * the full one would cost every `tools/list` of the boards toolset more than the tool itself.
 */
const DATE: JsonSchema = { type: 'string', description: 'ISO 8601' };

export function metricsTools(): ToolDef[] {
  return [
    {
      name: 'get_metrics',
      title: 'Flow metrics',
      description: 'Cycle/lead time percentiles, weekly throughput, WIP age, cumulative flow (ms)',
      routes: ['get /metrics'],
      inputSchema: input({ board: BOARD_ARG, from: DATE, to: DATE }),
      outputSchema: outline(flowMetricsResponseSchema as JsonSchema, 0),
      annotations: annotationsOf('get', '/metrics'),
      run: async ({ client }, args) => {
        const path = onBoard(args.board, '/metrics') + queryString({ from: args.from, to: args.to });
        const data = (await callApi(client, { method: 'get', path })).data as FlowMetrics;
        return structuredResult(metricsText(data), data as unknown as Record<string, unknown>);
      },
    },
  ];
}
