import type { KanbanConfig, WebhookConfig } from '../../config/types';
import type { Workspace } from '../../service/workspace';
import { isLiteralSecret, storedReference, storedReferenceTo } from './secrets';
import { secretStoreFor } from './secretStore';
import { log } from '../../core/log';

const guarded = new WeakSet<Workspace>();

/**
 * Make every config the service writes for `ws` hold no literal webhook secret: each one is saved
 * to the state file first, then replaced by `${secret:<webhook id>}` in the draft. This covers a
 * secret just sent through the API and one found in an older or hand-written `.kanban.json`, which
 * thus leaves the file on the next change the service makes. Idempotent.
 */
export function keepSecretsOutOfConfig(ws: Workspace): void {
  if (guarded.has(ws)) return;
  guarded.add(ws);
  ws.beforeConfigWrite.add((draft) => moveLiteralSecrets(ws, draft));
}

/** Where secretStoreFor keeps literal secrets: the shared database, or this instance's state file. */
function where(ws: Workspace): string {
  return ws.store.sharedWebhooks ? 'the shared database (kanban_webhook_secrets)' : '.kanban/.state/secrets.json';
}

function moveLiteralSecrets(ws: Workspace, draft: KanbanConfig): Promise<void> | undefined {
  const literal = draft.webhooks.filter(
    (hook): hook is WebhookConfig & { secret: string } => hook.secret !== undefined && isLiteralSecret(hook.secret),
  );
  if (literal.length === 0) return undefined;
  const moved: Record<string, string> = {};
  for (const hook of literal) {
    const fromFile = ws.config.webhooks.some((current) => current.id === hook.id && current.secret === hook.secret);
    moved[hook.id] = hook.secret;
    hook.secret = storedReferenceTo(hook.id);
    if (fromFile)
      log.warn(
        `kanban: moved the secret of webhook ${hook.id} out of .kanban.json (which is committed) into ${where(ws)}; .kanban.json now says "${hook.secret}"`,
      );
  }
  // Saved before the config that refers to it is written, so a crash in between leaves an unused
  // secret, never a reference to a missing one.
  return secretStoreFor(ws).update(moved);
}

/**
 * After a config write that dropped or replaced `previous`: delete the stored secret it referred to,
 * unless some webhook still refers to it (a registration copied by hand).
 */
export async function forgetStoredSecret(ws: Workspace, previous: string | undefined): Promise<void> {
  const name = previous === undefined ? null : storedReference(previous);
  if (name === null) return;
  if (ws.config.webhooks.some((hook) => hook.secret !== undefined && storedReference(hook.secret) === name)) return;
  await secretStoreFor(ws).update({}, [name]);
}
