import { Type, type Static } from '@sinclair/typebox';
import { closed, flag, openObject, text } from '../parts';

/** Request bodies of what hangs on a card: comments, logs, checklist items, attachments, forms, read marks. */

export const CommentCreateBody = closed({ author: text(), content: text('Markdown') });
export type CommentCreateBody = Static<typeof CommentCreateBody>;

export const CommentUpdateBody = closed({ content: text('Markdown') });
export type CommentUpdateBody = Static<typeof CommentUpdateBody>;

export const LogBody = closed({
  text: text('Markdown'),
  source: Type.Optional(text('default "default"')),
  object: Type.Optional(openObject('structured data, stored as sent')),
  timestamp: Type.Optional(text('ISO 8601; generated when omitted')),
});
export type LogBody = Static<typeof LogBody>;

export const UploadBody = closed({
  files: Type.Array(
    closed({
      name: text('file name, no path'),
      data: text('base64 content'),
      contentType: Type.Optional(text('MIME type')),
    }),
  ),
});
export type UploadBody = Static<typeof UploadBody>;

export const FormSubmitBody = closed({ data: openObject('the form data') });
export type FormSubmitBody = Static<typeof FormSubmitBody>;

export const ReadBody = closed({
  readThrough: Type.Optional(closed({ at: text('ISO 8601: everything up to this moment counts as read') })),
});
export type ReadBody = Static<typeof ReadBody>;

export const ChecklistAddBody = closed({ text: text('the item text, one line') });
export type ChecklistAddBody = Static<typeof ChecklistAddBody>;

export const ChecklistEditBody = closed({
  done: Type.Optional(flag('tick (true) or untick (false)')),
  text: Type.Optional(text('new item text, one line')),
});
export type ChecklistEditBody = Static<typeof ChecklistEditBody>;
