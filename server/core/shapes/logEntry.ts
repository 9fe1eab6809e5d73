import { Type } from '@sinclair/typebox';
import { named } from './names';
import { openObject, text, time } from './parts';

/** A card's or a board's log entry, as the log routes answer it. */
export const LogEntrySchema = named(
  'LogEntry',
  Type.Object(
    {
      text: text('Markdown'),
      source: text('who or what wrote it; "default" when not given'),
      object: Type.Optional(openObject('structured data, as posted')),
      timestamp: time('when it happened'),
    },
    { description: 'a log entry exactly as posted, plus defaults' },
  ),
);
