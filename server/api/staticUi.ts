import express, { type Router } from 'express';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** The folder holding package.json above this file, whether bundled (dist/) or run from source. */
export function packageRoot(from = __dirname): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
  return dir;
}

/** The built board UI (dist/webview) at `/`. */
export function staticUi(uiDir = path.join(packageRoot(), 'dist', 'webview')): Router {
  const router = express.Router();
  router.use(express.static(uiDir, { index: 'index.html', fallthrough: true }));
  router.get('/', (_req, res) => {
    res
      .status(200)
      .type('text/plain')
      .send('The board UI is not built yet: run `npm run build`. The API is at /api and its docs at /api/docs.\n');
  });
  return router;
}
