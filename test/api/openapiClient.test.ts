import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { startTestServer, type TestServer } from '../helpers/testServer';

/**
 * The contract a client compiles against: types generated from the served document with
 * openapi-typescript, a script using openapi-fetch for the everyday operations compiled with strict
 * tsc, then run against a real server. The packages are devDependencies; when they are missing the
 * test fails saying how to install them, since a skipped contract test would pass unnoticed.
 */

const ROOT = path.resolve(__dirname, '../..');
/** Under test-output/ (ignored by git) so the generated files resolve packages from the project's node_modules. */
const OUT = path.join(ROOT, 'test-output', 'openapi-client');
const TEMPLATE = path.join(__dirname, 'openapiClient', 'everydayClient.ts.template');
const INSTALL = 'npm install -D openapi-typescript@^7.13.0 openapi-fetch@^0.17.0';

/** The part of openapi-typescript used here, written out so the project typechecks before the package is installed. */
interface OpenapiTypescript {
  default(document: unknown): Promise<unknown>;
  astToString(ast: unknown): string;
}

function requirePackage<T>(name: string): T {
  let resolved: string;
  try {
    resolved = require.resolve(name, { paths: [OUT, ROOT] });
  } catch {
    throw new Error(`the package "${name}" is not installed; run in the checkout: ${INSTALL}`);
  }
  return require(resolved) as T;
}

/** Strict tsc over the generated types and the client script: every diagnostic, as tsc prints it. */
function compileErrors(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: false,
  });
  const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => OUT, getNewLine: () => '\n' };
  return ts.getPreEmitDiagnostics(program).map((d) => ts.formatDiagnostic(d, host).trim());
}

describe('API OpenAPI document: a typed client compiles and runs against it', function () {
  this.timeout(120_000);
  let server: TestServer;
  let clientFile: string;

  before(async () => {
    server = await startTestServer({
      config: {
        version: 2,
        boards: [{ id: 'default', name: 'Default' }],
        forms: {
          release: { name: 'Release', schema: { type: 'object', properties: { version: { type: 'string' } } } },
        },
      },
    });
    const { default: openapiTS, astToString } = requirePackage<OpenapiTypescript>('openapi-typescript');
    requirePackage('openapi-fetch');
    const document = await (await fetch(`${server.url}/api/docs/json`)).json();
    await fs.mkdir(OUT, { recursive: true });
    await fs.writeFile(path.join(OUT, 'api.d.ts'), astToString(await openapiTS(document)));
    clientFile = path.join(OUT, 'everydayClient.ts');
    await fs.writeFile(clientFile, await fs.readFile(TEMPLATE, 'utf8'));
  });

  after(async () => {
    await server?.close();
  });

  it('when the generated types and the everyday client script are compiled with strict tsc, then there is no error', () => {
    assert.deepEqual(compileErrors([clientFile]), []);
  });

  it('when the compiled client lists, gets, creates with metadata and form data, updates, moves, comments and deletes, then each answer is what it typed', async () => {
    const { everydayUse } = require(clientFile) as { everydayUse(url: string): Promise<Record<string, any>> };
    const result = await everydayUse(server.url);
    assert.equal(result.sprint, 's12');
    assert.ok(result.listed.includes(result.id), 'the created card is in the list');
    assert.equal(result.readTitle, 'Ship the typed client');
    assert.equal(result.notModifiedStatus, 304);
    assert.deepEqual(result.updatedMetadata, { sprint: 's13' }, 'an update replaces metadata');
    assert.deepEqual(result.updatedFormData.release, { version: '1.2.4' });
    assert.equal(result.movedStatus, 'in-progress');
    assert.equal(result.movedMetadata.lane, 'b');
    assert.match(result.commentId, /^c_/);
    assert.equal(result.commentCount, 1);
    assert.equal(result.deletedStatus, 'deleted');
    assert.equal(result.missingStatus, 404);
    assert.match(result.missingError, /no-such-card/);
  });
});
