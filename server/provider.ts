/**
 * `kanban-board-service/provider`: what a storage provider package builds on. The contract's types
 * (see storage/contract.ts for the rules), and the conformance suite that `kanban provider-test`
 * runs, for a provider's own test runner.
 */
export * from './storage/contract';
export { runAttachmentStoreConformance, runCardStoreConformance } from './storage/conformance';
export type { CheckResult, ConformanceReport, RunOptions } from './storage/conformance';
