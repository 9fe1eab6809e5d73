import { Type } from '@sinclair/typebox';
import { fields, flag, named, text } from './schemaParts';
import { ImportResultSchema, SourceFilesSchema } from '../core/shapes/importResult';
import { LogEntrySchema } from '../core/shapes/logEntry';
import { InvalidFileSchema, MigrationResultSchema } from '../core/shapes/storage';
import { WebhookDeliverySchema, WebhookSchema } from '../core/shapes/webhook';

/**
 * Schemas of the success `data` of the routes around the cards rather than of them: logs, webhooks,
 * storage migration and import, the path check. The shapes the service types from live in
 * core/shapes; this file gives them the names the routes import.
 */

export const logEntrySchema = LogEntrySchema;
export const logEntryListSchema = Type.Array(LogEntrySchema, { description: 'entries, oldest first' });

export const webhookSchema = WebhookSchema;
export const webhookListSchema = Type.Array(WebhookSchema);
export const webhookDeliverySchema = WebhookDeliverySchema;
export const webhookDeliveryListSchema = Type.Array(WebhookDeliverySchema, {
  description: 'the last 50 attempts, newest first',
});

export const invalidFileSchema = InvalidFileSchema;
export const migrationResultSchema = MigrationResultSchema;
export const importResultSchema = ImportResultSchema;
export const sourceFilesSchema = SourceFilesSchema;

/** Only the API answers this one (the path check of the settings form), so it stays here. */
export const resolvedPathSchema = named(
  'ResolvedPath',
  fields({
    input: text('the path as given'),
    path: text('absolute, canonical path (symbolic links resolved when it exists)'),
    exists: flag('whether something exists at that path'),
  }),
);
