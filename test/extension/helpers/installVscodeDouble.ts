/**
 * Makes `require('vscode')` (which only the editor can provide) load the test double. Import this
 * first in every extension test file, before any module of the extension.
 */
import Module from 'node:module';

const doublePath = require.resolve('./vscodeDouble');
const moduleWithResolver = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
const original = moduleWithResolver._resolveFilename;
moduleWithResolver._resolveFilename = function resolve(this: unknown, request: string, ...rest: unknown[]): string {
  if (request === 'vscode') return doublePath;
  return original.call(this, request, ...rest);
};
