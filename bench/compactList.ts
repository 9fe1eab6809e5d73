import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { KanbanService } from '../extension/service/kanbanService';
import { withListDefaults } from '../server/core/shapes/listDefaults';
import { TempDirs } from '../test/e2e/helpers/codeServer';
import { seedWorkspaceFiles } from '../test/e2e/helpers/session';
import { boardCardsPath } from '../webview/listQuery';

/**
 * The board page's first list, full against compact (`compact=true`), over the folder the VS Code
 * start-up bench opens (one card per title in To Do): the bytes that cross from the extension host
 * to the webview, the service's build of each (first read, then from its read cache), and the
 * page's parse (with the defaults put back, for the compact one). In-process, as the webview asks.
 */
const { values } = parseArgs({
  options: {
    cards: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    // Which is built first pays the colder process: swap them to see how much of a difference that is.
    'compact-first': { type: 'boolean', default: false },
  },
});
const cards = Number(values.cards);
const runs = Number(values.runs);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function timed<T>(work: () => Promise<T> | T): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

async function main(): Promise<void> {
  const temp = new TempDirs();
  try {
    const folder = await seedWorkspaceFiles(
      temp,
      Array.from({ length: cards }, (_, i) => `Card number ${i + 1}`),
    );
    const service = await KanbanService.open(folder);
    const fullPath = '/boards/default/tasks?includeDeleted=true';
    const paths = values['compact-first']
      ? { compact: boardCardsPath('default'), full: fullPath }
      : { full: fullPath, compact: boardCardsPath('default') };
    for (const [name, path] of Object.entries(paths)) {
      const ask = () => service.dispatcher.dispatch({ method: 'GET', path, asJson: true });
      const [first, firstMs] = await timed(ask);
      const kept: number[] = [];
      for (let i = 0; i < runs; i++) kept.push((await timed(ask))[1]);
      const text = first.json ? new TextDecoder().decode(first.json) : '';
      const parse: number[] = [];
      for (let i = 0; i < runs; i++) {
        parse.push(
          (
            await timed(() => {
              const data = (JSON.parse(text) as { data: object[] }).data;
              return name === 'compact' ? data.map((entry) => withListDefaults(entry)) : data;
            })
          )[1],
        );
      }
      const bytes = Buffer.byteLength(text);
      console.log(
        `${name}: ${bytes.toLocaleString('en')} B (${Math.round(bytes / cards)} B a card); first build ${ms(firstMs)}, kept ${ms(median(kept))}; parse${name === 'compact' ? ' + defaults' : ''} ${ms(median(parse))} (median of ${runs})`,
      );
    }
    await service.close();
  } finally {
    await temp.cleanUp();
  }
}

void main();
