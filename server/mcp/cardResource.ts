import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ReadResourceResult } from '@modelcontextprotocol/server';
import type { ApiClient } from '../client/apiClient';
import type { Card, TaskView } from '../core/model';
import { serializeCard } from '../storage/cardFile';
import { callApi, enc } from './tool';

/** One card as a resource: its file as a person edits it, and its read model as the API answers it. */

export const CARD_URI = 'kanban://cards/';

/** The card's read model, as `GET /api/tasks/{id}` answers it (a unique prefix finds the card too). */
export async function cardView(client: ApiClient, id: string): Promise<TaskView> {
  return (await callApi(client, { method: 'get', path: `/tasks/${enc(id)}` })).data as TaskView;
}

/**
 * The card file's text: read from disk when this process holds the workspace and the card has a file;
 * else (a server over HTTP, a database store) written from the read model by the card file's own
 * serializer, which gives the same text but for the `order` key, a sort key the read model leaves out.
 */
async function cardFileText(client: ApiClient, view: TaskView): Promise<string> {
  if (client.mode === 'local' && view.filePath) {
    try {
      return await readFile(path.join(client.target, view.filePath), 'utf8');
    } catch {
      // Moved or removed between the read and now: the read model still says what the card is.
    }
  }
  return serializeCard(cardOf(view));
}

function cardOf(view: TaskView): Card {
  return {
    id: view.id,
    boardId: view.boardId,
    status: view.status,
    content: view.content,
    priority: view.priority,
    ...(view.assignee ? { assignee: view.assignee } : {}),
    ...(view.dueDate ? { dueDate: view.dueDate } : {}),
    labels: view.labels,
    metadata: view.metadata,
    forms: view.forms,
    formData: view.formData,
    ...(hasActions(view.actions) ? { actions: view.actions } : {}),
    attachments: view.attachments,
    comments: view.comments ?? [],
    // Undefined keys are left out of the YAML: the read model has no order to write.
    order: undefined as unknown as string,
    created: view.created,
    modified: view.modified,
    ...(view.completedAt ? { completedAt: view.completedAt } : {}),
    ...(view.blockedBy.length ? { blockedBy: view.blockedBy } : {}),
    ...(view.archivedAt ? { archivedAt: view.archivedAt } : {}),
  };
}

/** The read model shows a card without actions as an empty list; its file has no `actions` key. */
const hasActions = (actions: TaskView['actions']) =>
  Array.isArray(actions) ? actions.length > 0 : Object.keys(actions ?? {}).length > 0;

/** `kanban://cards/<id>`: the file as Markdown with its frontmatter, then the read model as JSON. */
export async function readCardResource(client: ApiClient, uri: string): Promise<ReadResourceResult> {
  const view = await cardView(client, decodeURIComponent(uri.slice(CARD_URI.length)));
  return {
    contents: [
      { uri, mimeType: 'text/markdown', text: await cardFileText(client, view) },
      { uri, mimeType: 'application/json', text: JSON.stringify(view) },
    ],
  };
}
