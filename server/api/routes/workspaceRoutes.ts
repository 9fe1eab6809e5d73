import { deleteLabel, getLabels, labelUsage, putLabel, renameLabel } from '../../service/labels';
import { getSettings, resolvePath, updateSettings } from '../../service/settings';
import { defineRoutes, route } from '../route';
import { labelsVersion, settingsVersion } from '../versions';
import { LabelBody, LabelRenameBody, SettingsBody } from '../../core/shapes/requests/workspace';
import { labelUsageSchema, labelsSchema, resolvedPathSchema, settingsViewSchema } from '../responseSchemas';

export const workspaceRoutes = defineRoutes([
  {
    method: 'get',
    path: '/settings',
    tag: 'Settings',
    summary: 'Workspace display settings',
    version: settingsVersion,
    response: settingsViewSchema,
    handle: ({ ws }) => getSettings(ws),
  },
  route({
    method: 'put',
    path: '/settings',
    tag: 'Settings',
    summary: 'Update settings (merge); broadcast at once',
    body: SettingsBody,
    errors: [409, 412],
    version: settingsVersion,
    response: settingsViewSchema,
    handle: ({ ws, body }) => updateSettings(ws, body),
  }),
  {
    method: 'get',
    path: '/labels',
    tag: 'Labels',
    summary: 'Label definitions',
    version: labelsVersion,
    response: labelsSchema,
    handle: ({ ws }) => getLabels(ws),
  },
  {
    method: 'get',
    path: '/labels/usage',
    tag: 'Labels',
    summary: 'Labels in use: every defined label and every label a card carries, with card counts',
    response: labelUsageSchema,
    handle: ({ ws }) => labelUsage(ws),
  },
  route({
    method: 'put',
    path: '/labels/{name}',
    tag: 'Labels',
    summary: 'Define or change a label',
    body: LabelBody,
    errors: [409, 412],
    version: labelsVersion,
    response: labelsSchema,
    handle: ({ ws, params, body }) => putLabel(ws, params.name, body),
  }),
  route({
    method: 'patch',
    path: '/labels/{name}',
    tag: 'Labels',
    summary: 'Rename a label on every card of every board',
    body: LabelRenameBody,
    errors: [404, 409, 412],
    version: labelsVersion,
    response: labelsSchema,
    handle: ({ ws, params, body }) => renameLabel(ws, params.name, body.newName),
  }),
  {
    method: 'delete',
    path: '/labels/{name}',
    tag: 'Labels',
    summary: 'Delete a label and remove it from every card',
    errors: [404, 409, 412],
    version: labelsVersion,
    response: labelsSchema,
    handle: ({ ws, params }) => deleteLabel(ws, params.name),
  },
  {
    method: 'get',
    path: '/resolve-path',
    tag: 'Workspace',
    summary: 'Canonical absolute form of a path',
    query: [
      { name: 'path', type: 'string', required: true, description: 'workspace-relative, absolute or ~-prefixed' },
    ],
    response: resolvedPathSchema,
    handle: ({ ws, query }) => resolvePath(ws, query.path as string),
  },
]);
