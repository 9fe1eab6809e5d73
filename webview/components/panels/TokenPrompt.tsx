import { useEffect, useRef, useState } from 'preact/hooks';
import { useAppState, useController } from '../../context';

/**
 * Shown when the server answers 401: asks for an API token, which the browser keeps for this
 * server only and sends with every call. The server's message says why (none sent, not recognised).
 */
export function TokenPrompt() {
  const ctrl = useController();
  const { authPrompt } = useAppState();
  const [token, setToken] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!authPrompt) return;
    setToken('');
    input.current?.focus();
  }, [authPrompt]);
  if (!authPrompt) return null;
  return (
    <>
      <div class="sheet-backdrop token-backdrop" />
      <div
        class="token-prompt"
        role="dialog"
        aria-modal="true"
        aria-labelledby="token-prompt-title"
        data-testid="token-prompt"
      >
        <form
          class="token-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (token.trim()) ctrl.auth.submit(token);
          }}
        >
          <h2 id="token-prompt-title" class="sheet-title">
            This board needs a token
          </h2>
          <p class="field-error" role="alert" data-testid="token-prompt-message">
            {authPrompt.message}
          </p>
          <label class="field">
            <span class="field-label">API token</span>
            <input
              ref={input}
              class="input"
              type="password"
              name="token"
              autocomplete="off"
              spellcheck={false}
              value={token}
              onInput={(e) => setToken((e.target as HTMLInputElement).value)}
            />
            <span class="field-hint">Kept in this browser for this server only, and sent as a Bearer token.</span>
          </label>
          <div class="form-actions">
            <button type="submit" class="btn btn-primary" disabled={!token.trim()}>
              Use token
            </button>
          </div>
        </form>
      </div>
    </>
  );
}
