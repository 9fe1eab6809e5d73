import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const REPO = path.resolve(__dirname, '..', '..');

/** What `npm run lint` says of one file with this text, at this place in the repository. */
async function lintAt(relativeFile: string, text: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: REPO });
  const [result] = await eslint.lintText(text, { filePath: path.join(REPO, relativeFile) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

/** The layer order in the linter (lint/layers.mjs): an import that runs back up fails `npm run lint`. */
describe('the layer rule of npm run lint', function () {
  this.timeout(60_000);

  it('when a lower layer imports a higher one, then lint names both files, both layers and the order', async () => {
    const messages = await lintAt(
      'server/core/backArrow.ts',
      "import { Workspace } from '../service/workspace';\nexport const w = Workspace;\n",
    );
    assert.equal(messages.length, 1, messages.join('\n'));
    assert.match(
      messages[0],
      /^layers\/imports-look-down: server\/core\/backArrow\.ts \(core\) imports server\/service\/workspace \(service\), a layer above it; the order is core < config/,
    );
  });

  it('when a type-only import or a re-export runs back up, then it fails too', async () => {
    const typeOnly = await lintAt(
      'server/auth/backArrow.ts',
      "import type { RouteDef } from '../api/route';\nexport type R = RouteDef;\n",
    );
    assert.equal(typeOnly.length, 1, typeOnly.join('\n'));
    const reExport = await lintAt('server/live/backArrow.ts', "export { runServe } from '../cli/serve';\n");
    assert.equal(reExport.length, 1, reExport.join('\n'));
  });

  it('when a module imports its own layer or those below, then lint is clean', async () => {
    const messages = await lintAt(
      'server/api/lookingDown.ts',
      "import type { Workspace } from '../service/workspace';\nimport { log } from '../core/log';\nimport { isAllowedHost } from '../live/hostNames';\nexport type W = Workspace;\nexport const used = [log, isAllowedHost];\n",
    );
    assert.deepEqual(messages, []);
  });
});

/** The circle rule (lint/circles.mjs): no module reaches itself again through its imports. */
describe('the circle rule of npm run lint', function () {
  this.timeout(60_000);

  it('when a file imports one that imports it back, then lint names the whole circle', async () => {
    // core/csv.ts imports core/errors.ts; errors.ts importing csv.ts back closes a circle.
    const messages = await lintAt(
      'server/core/errors.ts',
      "import { parseCsv } from './csv';\nexport const parse = parseCsv;\n",
    );
    const circles = messages.filter((m) => m.startsWith('circles/'));
    assert.equal(circles.length, 1, messages.join('\n'));
    assert.match(
      circles[0],
      /^circles\/no-import-circles: server\/core\/errors\.ts imports server\/core\/csv\.ts, which leads back to it: server\/core\/errors\.ts -> server\/core\/csv\.ts -> server\/core\/errors\.ts\./,
    );
  });

  it('when a re-export closes the circle, then it fails too', async () => {
    // listPaging.ts imports model.ts; model.ts re-exporting listPaging.ts closes a circle.
    const viaReExport = await lintAt('server/core/model.ts', "export * from './listPaging';\n");
    assert.equal(viaReExport.filter((m) => m.startsWith('circles/')).length, 1, viaReExport.join('\n'));
  });

  it('when a lazy import() reaches back, then it is not a circle', async () => {
    const messages = await lintAt('server/core/errors.ts', "export const load = () => import('./csv');\n");
    assert.deepEqual(
      messages.filter((m) => m.startsWith('circles/')),
      [],
    );
  });
});
