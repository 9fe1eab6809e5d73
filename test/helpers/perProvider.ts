import {
  configWith,
  setUpCardProvider,
  type CardProviderName,
  type CardProviderSetup,
} from '../storage/helpers/cardProviders';
import { startServerWithOpsBoard } from './serverHooks';
import { startTestServer, type TestServer } from './testServer';

/**
 * The per-test setup that suites repeating themselves over card.storage providers share: a fresh
 * store of `providerName` and a server over it before each test, both removed after. The server is
 * handed to `started` (the suite keeps it in its own `let server`, so its tests read as before).
 */
export function useCardProviderServer(providerName: CardProviderName, started: (server: TestServer) => void): void {
  let provider: CardProviderSetup | undefined;
  let server: TestServer | undefined;
  beforeEach(async () => {
    provider = await setUpCardProvider(providerName);
    server = await startTestServer({ config: configWith(provider.plugins) });
    started(server);
  });
  afterEach(async () => {
    await server?.close();
    await provider?.cleanup();
    server = provider = undefined;
  });
}

/** A fresh server with the second board `ops` before each test, closed after. */
export function useServerWithOpsBoard(started: (server: TestServer) => void): void {
  let server: TestServer | undefined;
  beforeEach(async () => {
    server = await startServerWithOpsBoard();
    started(server);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
}

/** The same tests on the default board (its unscoped routes) and on `ops` (the board-scoped twins). */
export function forEachBoard(body: (boardId: string | undefined, on: string) => void): void {
  for (const boardId of [undefined, 'ops']) body(boardId, boardId ? `board "${boardId}"` : 'the default board');
}
