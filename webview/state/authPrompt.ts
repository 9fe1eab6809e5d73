import type { Transport } from '../transport';
import type { AppState } from './appState';
import type { Store } from './store';

/**
 * Connects the transport's "the server wants a token" to the token prompt in the UI: the prompt
 * shows the server's message, and what the user enters is handed back to the transport, which
 * stores it and retries. A wrong token comes back here with the server's new message.
 */
export function installAuthPrompt(transport: Transport, store: Store<AppState>): { submit(token: string): void } {
  let resolve: ((token: string | null) => void) | null = null;
  transport.onAuthRequired?.((message) => {
    store.set({ authPrompt: { message } });
    return new Promise<string | null>((done) => (resolve = done));
  });
  return {
    submit(token: string) {
      const done = resolve;
      resolve = null;
      store.set({ authPrompt: null });
      done?.(token.trim() || null);
    },
  };
}
