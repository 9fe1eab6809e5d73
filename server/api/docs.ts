import express, { type Router } from 'express';
import * as path from 'node:path';
import type { RouteDef } from './route';
import { buildOpenApi } from './openapi';
import { PRODUCT_NAME } from './openapiInfo';

// Paths are relative to the page (/api/docs), so the page also works behind a proxy that serves the
// server under a prefix, such as code-server's /proxy/<port>/ where VS Code's Open API Docs lands.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${PRODUCT_NAME} API</title>
<link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/assets/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

// validatorUrl 'none': the default sends the document to validator.swagger.io, which offline docs must not do.
const INIT = `window.ui = SwaggerUIBundle({ url: 'docs/json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: 'none' });\n`;

/** `/api/docs` (Swagger UI served from the installed package: no CDN, works offline) and `/api/docs/json`. */
export function docsRouter(routes: RouteDef[]): Router {
  const router = express.Router();
  const document = buildOpenApi(routes);
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.get('/docs/json', (_req, res) => {
    res.json(document);
  });
  router.get('/docs', (req, res) => {
    // `/api/docs/` would make the relative paths point one folder too deep.
    if (req.path.endsWith('/')) return res.redirect(301, '../docs');
    res.type('html').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.use('/docs/assets', express.static(assets, { index: false }));
  return router;
}
