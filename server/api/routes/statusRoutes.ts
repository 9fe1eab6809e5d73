import { describeAuth, describeCardState, describeStorage, describeWorkspace } from '../../service/status';
import { defineRoutes } from '../route';
import { formDefinitionsSchema } from '../responseSchemas';
import { authStatusSchema, cardStateStatusSchema, storageSchema, workspaceSchema } from '../statusSchemas';

export const statusRoutes = defineRoutes([
  {
    method: 'get',
    path: '/workspace',
    tag: 'Workspace',
    summary: 'Workspace root, port, providers, watcher support and invalid files',
    response: workspaceSchema,
    handle: ({ ws }) => describeWorkspace(ws),
  },
  {
    method: 'get',
    path: '/storage',
    tag: 'Workspace',
    summary: 'Active card, attachment, webhook and card-state providers, plus file and watch metadata',
    response: storageSchema,
    handle: ({ ws }) => describeStorage(ws),
  },
  {
    method: 'get',
    path: '/card-state/status',
    tag: 'Card state',
    summary: 'Card-state provider status, the default-actor contract and identity health',
    response: cardStateStatusSchema,
    handle: (ctx) => describeCardState(ctx),
  },
  {
    method: 'get',
    path: '/auth',
    tag: 'Workspace',
    summary: 'Auth provider and what this request carried (never the token)',
    response: authStatusSchema,
    handle: (ctx) => describeAuth(ctx),
  },
  {
    method: 'get',
    path: '/forms',
    tag: 'Forms',
    summary: 'Workspace forms from .kanban.json',
    response: formDefinitionsSchema,
    handle: ({ ws }) => ws.config.forms,
  },
]);
