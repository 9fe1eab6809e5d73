import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { StorageProviderContext } from '../contract';
import { shapeProblems, type StorageCapability } from '../externalProvider';

/** A store being checked, opened by the provider's own factory. */
export type StoreFactory<S> = (options: Record<string, unknown>, context: StorageProviderContext) => S | Promise<S>;

/** What one check gets: a fresh workspace folder and a way to open stores over it. */
export interface CheckContext<S> {
  root: string;
  /** Open a store over this check's workspace (a second call is a second instance, as another process would be). */
  open(): Promise<S>;
  /** Close a store opened by `open` (the runner closes any still open after the check). */
  close(store: S): Promise<void>;
}

export interface Check<S> {
  name: string;
  /** A reason to skip the check for this store (an optional method it does not have), or null. */
  skip?(store: S): string | null;
  run(context: CheckContext<S>): Promise<void>;
}

export interface CheckResult {
  name: string;
  status: 'pass' | 'fail' | 'skip';
  /** Why it failed, or why it was skipped. */
  message?: string;
  ms: number;
}

export interface ConformanceReport {
  capability: StorageCapability;
  results: CheckResult[];
  passed: number;
  failed: number;
  skipped: number;
}

export interface RunOptions {
  /** The provider's options, as `plugins[capability].options` would hold them. */
  options?: Record<string, unknown>;
  /** Called as each check ends, to print progress. */
  onResult?(result: CheckResult): void;
  /** The longest one check may take (default 30 s): a store that hangs fails instead of blocking. */
  timeoutMs?: number;
}

/**
 * Run checks one after the other, each over its own temporary workspace, so a failing check leaves
 * nothing behind for the next one. No test framework: the suite runs from the `kanban` binary.
 */
export async function runChecks<S>(
  capability: StorageCapability,
  factory: StoreFactory<S>,
  checks: Check<S>[],
  run: RunOptions = {},
): Promise<ConformanceReport> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    const started = Date.now();
    const result = await runOne(capability, factory, check, run).then(
      (outcome): CheckResult => ({ name: check.name, ...outcome, ms: Date.now() - started }),
      (error): CheckResult => ({
        name: check.name,
        status: 'fail',
        message: describeError(error),
        ms: Date.now() - started,
      }),
    );
    results.push(result);
    run.onResult?.(result);
  }
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length;
  return { capability, results, passed: count('pass'), failed: count('fail'), skipped: count('skip') };
}

async function runOne<S>(
  capability: StorageCapability,
  factory: StoreFactory<S>,
  check: Check<S>,
  run: RunOptions,
): Promise<Omit<CheckResult, 'name' | 'ms'>> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'kanban-provider-test-'));
  const kanbanDir = path.join(root, '.kanban');
  await fs.mkdir(kanbanDir);
  const open = new Set<S>();
  const context: CheckContext<S> = {
    root,
    async open() {
      const store = await factory({ ...run.options }, { root, kanbanDir });
      const problems = shapeProblems(capability, store);
      if (problems.length) throw new Error(`the factory returned a store without ${problems.join('; ')}`);
      open.add(store);
      return store;
    },
    async close(store) {
      open.delete(store);
      await (store as { close(): Promise<void> }).close();
    },
  };
  try {
    if (check.skip) {
      const probe = await context.open();
      const reason = check.skip(probe);
      await context.close(probe);
      if (reason) return { status: 'skip', message: reason };
    }
    await withTimeout(check.run(context), run.timeoutMs ?? 30_000);
    return { status: 'pass' };
  } finally {
    for (const store of open) await (store as { close(): Promise<void> }).close().catch(() => undefined);
    await fs.rm(root, { recursive: true, force: true }).catch(() => undefined);
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

function describeError(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  return message.split('\n').slice(0, 12).join('\n');
}

/** Wait until `check` holds (polling), for changes that arrive on their own time (a change feed). */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
