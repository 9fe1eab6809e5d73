// Renders extension/media/icon.svg to the 128x128 PNG the Marketplace and the Extensions view show
// (vsce accepts no SVG as the extension's icon). The PNG is committed, since vsce packs what is on
// disk; run `npm run icon` after changing the SVG. The activity bar keeps the monochrome kanban.svg.
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const SIZE = 128;
const source = new URL('./extension/media/icon.svg', import.meta.url);
const target = new URL('./extension/media/icon.png', import.meta.url);

const svg = await readFile(source, 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await page.setContent(
    `<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block}</style>${svg}`,
  );
  await page.locator('svg').screenshot({ path: target.pathname, omitBackground: true });
} finally {
  await browser.close();
}
console.log(`wrote ${target.pathname}`);
