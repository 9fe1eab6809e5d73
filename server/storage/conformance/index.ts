import type { AttachmentStoreFactory, CardStoreFactory } from '../contract';
import { attachmentChecks } from './attachmentChecks';
import { cardChecks } from './cardChecks';
import { runChecks, type ConformanceReport, type RunOptions } from './runner';

export type { CheckResult, ConformanceReport, RunOptions } from './runner';

/**
 * The behaviour every `card.storage` provider shows (the built-in ones pass it too): run it against
 * your factory, e.g. `runCardStoreConformance(createCardStore, { options: { file: 'cards.json' } })`,
 * or from the command line: `kanban provider-test ./my-provider.js`.
 */
export function runCardStoreConformance(
  factory: CardStoreFactory,
  options: RunOptions = {},
): Promise<ConformanceReport> {
  return runChecks('card.storage', factory, cardChecks, options);
}

/** The same for `attachment.storage` providers. */
export function runAttachmentStoreConformance(
  factory: AttachmentStoreFactory,
  options: RunOptions = {},
): Promise<ConformanceReport> {
  return runChecks('attachment.storage', factory, attachmentChecks, options);
}
