import { render } from 'preact';
import { App } from './components/App';
import { ControllerContext } from './context';
import { HttpTransport } from './httpTransport';
import { PostMessageTransport } from './postMessageTransport';
import { BoardController } from './state/controller';
import { installDeepLinks } from './state/deepLinks';
import { installViewTracking } from './state/views';
import type { Transport } from './transport';

/** Inside a VS Code webview the extension host answers; anywhere else the standalone server does. */
function chooseTransport(): Transport {
  if (typeof globalThis.acquireVsCodeApi === 'function') return new PostMessageTransport(globalThis.acquireVsCodeApi());
  return new HttpTransport();
}

const controller = new BoardController(chooseTransport());
installViewTracking(controller);
// The page URL is the link to what is shown; a VS Code webview has no address bar (vscode:// links instead).
if (controller.transport.host === 'browser') installDeepLinks(controller);
// Connected before the first drawing: the cards are asked for once the live connection says hello,
// and the handshake then overlaps the drawing of the empty board instead of following it.
controller.start();
const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
render(
  <ControllerContext.Provider value={controller}>
    <App />
  </ControllerContext.Provider>,
  root,
);
// Tests and the benchmark read render timings from here.
(window as unknown as { kanbanBoard?: BoardController }).kanbanBoard = controller;
