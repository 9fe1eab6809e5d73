import { randomBytes } from 'node:crypto';

export interface BoardHtmlOptions {
  /** `webview.cspSource`: the origin VS Code serves local resources from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  /** The icon font's stylesheet (codicon.css), which loads codicon.ttf from beside it. */
  iconStyleUri: string;
  title: string;
  nonce?: string;
}

/** A fresh value per page load, so only the script this host wrote can run. */
export function createNonce(): string {
  return randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The board UI page for a webview. The policy allows exactly the bundled script (by nonce, which
 * the chunks it imports later, such as the metrics' charts, inherit), the stylesheets and the icon
 * font (by origin), images from the bundle or made in the page (attachment previews), and no
 * network at all: every API call goes through postMessage to the extension host.
 */
export function boardHtml(options: BoardHtmlOptions): string {
  const nonce = options.nonce ?? createNonce();
  const source = options.cspSource;
  const policy = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${source}`,
    `img-src ${source} data: blob:`,
    `font-src ${source}`,
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en" data-host="vscode">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeAttribute(options.title)}</title>
    <link rel="stylesheet" href="${escapeAttribute(options.iconStyleUri)}" />
    <link rel="stylesheet" href="${escapeAttribute(options.styleUri)}" />
    <script type="module" nonce="${nonce}" src="${escapeAttribute(options.scriptUri)}"></script>
  </head>
  <body>
    <div id="app"></div>
  </body>
</html>`;
}
