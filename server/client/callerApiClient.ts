import type { Dispatcher } from '../api/dispatch';
import type { ProgressListener } from '../core/progress';
import type { Workspace } from '../service/workspace';
import type { ApiAnswer, ApiCall, ApiClient } from './apiClient';

/**
 * The route table in this process, over a workspace a server already holds, for one caller: every
 * call carries that caller's token, so auth and roles apply to it exactly as to its own HTTP
 * requests. The MCP endpoint of `kanban serve` makes one per request; it owns nothing, so closing
 * it leaves the workspace open.
 */
export class CallerApiClient implements ApiClient {
  readonly mode = 'local' as const;
  readonly target: string;

  constructor(
    private readonly workspace: Workspace,
    private readonly dispatcher: Dispatcher,
    private readonly token: string | undefined,
  ) {
    this.target = workspace.root;
  }

  listenProgress(listener: ProgressListener): () => void {
    return this.workspace.progress.listen(listener);
  }

  call(call: ApiCall): Promise<ApiAnswer> {
    return this.dispatcher.dispatch({ ...call, token: this.token });
  }

  async close(): Promise<void> {}
}
