import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import type { ApiClient } from '../client/apiClient';
import type { ServiceEvent } from '../core/events';
import { CARD_URI, cardView } from './cardResource';
import { resourceChangeOf, type ResourceChange } from './resourceChanges';
import { BOARD_URI, listBoards } from './resources';
import { callApi, enc, ToolError } from './tool';

/**
 * `notifications/resources/updated` for the cards and boards a client follows, whichever front end
 * changed them (REST, the CLI, an editor saving the file): fed by the service's event stream.
 *
 * 2025-11-25: the client names each resource with `resources/subscribe`; the stream is followed
 * while at least one is named. 2026-07-28: the client names them in `subscriptions/listen`, which
 * the SDK's serving entry answers itself and uses to route what the instance announces; so an
 * instance that serves a whole connection (stdio) announces every change of a card or board
 * (`announceEveryChange`), and the entry drops what no subscription asked for.
 */

type Target = { kind: 'card' | 'board'; id: string };

export interface ResourceSubscriptionOptions {
  log: (line: string) => void;
  /** Announce every change from the start (a 2026-07-28 connection on stdio), not only subscribed ones. */
  announceEveryChange?: boolean;
}

/** Whether a change touches a subscribed card or board. */
function touches(target: Target, change: ResourceChange): boolean {
  if (target.kind === 'card') return change.cardId === target.id;
  return change.everyBoard || change.boardIds.includes(target.id);
}

/** What a subscribed URI names: a card by its whole id (the URI may hold a unique prefix), or a board. */
async function targetOf(client: ApiClient, uri: string): Promise<Target> {
  try {
    if (uri.startsWith(CARD_URI))
      return { kind: 'card', id: (await cardView(client, decodeURIComponent(uri.slice(CARD_URI.length)))).id };
    if (uri.startsWith(BOARD_URI)) {
      const id = decodeURIComponent(uri.slice(BOARD_URI.length));
      await callApi(client, { method: 'get', path: `/boards/${enc(id)}` });
      return { kind: 'board', id };
    }
  } catch (error) {
    if (error instanceof ToolError && error.status === 404)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `cannot subscribe to ${uri}: ${error.message}`);
    throw error;
  }
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `cannot subscribe to ${uri}: only ${CARD_URI}<card id> and ${BOARD_URI}<board id> change`,
  );
}

/**
 * Declare `resources.subscribe` and serve `resources/subscribe` / `resources/unsubscribe` on this
 * instance; the event stream is let go when the connection closes. A client that cannot follow
 * events (no `listenEvents`) leaves the instance without subscriptions.
 */
export function attachResourceSubscriptions(
  server: Server,
  client: ApiClient,
  options: ResourceSubscriptionOptions,
): void {
  if (!client.listenEvents) return;
  const subscribed = new Map<string, Target>();
  const feed = new EventFeed(
    client,
    (event) =>
      void announce(event).catch((error: Error) => options.log(`announcing a change: ${error.stack ?? error.message}`)),
  );
  server.registerCapabilities({ resources: { subscribe: true } });

  const send = (uri: string) =>
    server
      .sendResourceUpdated({ uri })
      .catch((error: Error) => options.log(`resources/updated ${uri}: ${error.message}`));

  async function announce(event: ServiceEvent): Promise<void> {
    const change = resourceChangeOf(event);
    if (options.announceEveryChange) {
      for (const uri of await urisChangedBy(boardIdsOf(client), change)) void send(uri);
      return;
    }
    for (const [uri, target] of subscribed) if (touches(target, change)) void send(uri);
  }

  server.setRequestHandler('resources/subscribe', async (request) => {
    subscribed.set(request.params.uri, await targetOf(client, request.params.uri));
    // Answered only once the stream is followed: a change made after the answer is announced.
    await feed.start();
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    subscribed.delete(request.params.uri);
    if (subscribed.size === 0 && !options.announceEveryChange) feed.stop();
    return {};
  });

  if (options.announceEveryChange)
    feed.start().catch((error: Error) => options.log(`cannot follow the board's changes: ${error.message}`));
  const closed = server.onclose;
  server.onclose = () => {
    feed.stop();
    subscribed.clear();
    closed?.();
  };
}

/** Every board's id, asked of the client. */
const boardIdsOf = (client: ApiClient) => async (): Promise<string[]> => (await listBoards(client)).map((b) => b.id);

/** The URIs of the card and boards a change touches, cards by their whole id. */
async function urisChangedBy(allBoardIds: () => Promise<string[]>, change: ResourceChange): Promise<string[]> {
  const boardIds = change.everyBoard ? await allBoardIds() : change.boardIds;
  return [...(change.cardId ? [`${CARD_URI}${change.cardId}`] : []), ...boardIds.map((id) => `${BOARD_URI}${id}`)];
}

/**
 * Every card and board URI that changes, from now until the answered function is called: for a host
 * whose instances live one request each (Streamable HTTP on 2026-07-28), which feeds these to the
 * SDK's event bus once per process (`resourceUpdated(uri)` of its notifier) rather than per instance.
 */
export async function followResourceChanges(
  client: Pick<ApiClient, 'target' | 'listenEvents'>,
  changed: (uri: string) => void,
  log: (line: string) => void,
  allBoardIds: () => Promise<string[]> = boardIdsOf(client as ApiClient),
): Promise<() => void> {
  if (!client.listenEvents) throw new Error(`${client.target} gives no event stream to follow`);
  return client.listenEvents((event) => {
    urisChangedBy(allBoardIds, resourceChangeOf(event)).then(
      (uris) => uris.forEach(changed),
      (error: Error) => log(`announcing a change: ${error.message}`),
    );
  });
}

/** The client's event stream, followed at most once however often it is started, and let go by stop. */
class EventFeed {
  private listening: Promise<() => void> | null = null;

  constructor(
    private readonly client: ApiClient,
    private readonly onEvent: (event: ServiceEvent) => void,
  ) {}

  async start(): Promise<void> {
    this.listening ??= this.client.listenEvents!(this.onEvent);
    try {
      await this.listening;
    } catch (error) {
      this.listening = null;
      throw error;
    }
  }

  stop(): void {
    const listening = this.listening;
    this.listening = null;
    void listening?.then(
      (stop) => stop(),
      () => undefined,
    );
  }
}
