import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { loadPluginModule, PluginModuleError } from '../config/pluginModule';
import {
  runAttachmentStoreConformance,
  runCardStoreConformance,
  type CheckResult,
  type ConformanceReport,
  type RunOptions,
} from '../storage/conformance';
import type { StorageProviderModule } from '../storage/contract';
import { BUILT_IN_PROVIDERS, builtInAttachmentStoreFactory, builtInCardStoreFactory } from '../storage/providers';
import { helpFor, str, type Command } from './command';
import { paint, type Output } from './output';
import { CliError, UsageError } from './usage';

/**
 * `kanban provider-test <module>`: the behaviour checks every storage provider passes, run against
 * a provider package, a module file or a built-in name. Each check opens stores with the provider's
 * own factory over a fresh temporary workspace; the exit code is 1 when any check fails.
 */
export const providerTestCommand: Command = {
  name: 'provider-test',
  summary: 'Check a card.storage or attachment.storage provider against the contract (the tests the built-ins pass)',
  args: '<package | ./module.js | built-in name>',
  details: [
    'runs the card.storage checks when the module exports createCardStore, the attachment.storage',
    'checks when it exports createAttachmentStore (both when it exports both); each check uses its own',
    'temporary workspace folder. Exit code 1 when a check fails.',
    'example: kanban provider-test ./examples/provider-jsonfile --options \'{"file":"cards.json"}\'',
  ],
  options: {
    options: {
      type: 'string',
      value: '<json>',
      description: "the provider's options, as plugins[...].options would hold them",
    },
  },
  positionals: [1, 1],
  writes: false,
  offline: true,
  async run(ctx, parsed) {
    const options = parseOptions(str(parsed, 'options'));
    const target = parsed.positionals[0];
    const suites = suitesFor(target, process.cwd());
    const reports: ConformanceReport[] = [];
    for (const suite of suites) {
      if (!ctx.json) ctx.output.out(`${suite.capability} provider "${target}"`);
      const onResult = ctx.json ? undefined : (result: CheckResult) => ctx.output.out(resultLine(ctx.output, result));
      const report = await suite.run({ options, onResult });
      if (!ctx.json)
        ctx.output.out(
          `${report.results.length} checks: ${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped\n`,
        );
      reports.push(report);
    }
    if (ctx.json) ctx.output.out(JSON.stringify(reports, null, 2));
    const failed = reports.reduce((sum, r) => sum + r.failed, 0);
    if (failed)
      throw new CliError(
        `${failed} check${failed > 1 ? 's' : ''} failed: "${target}" does not behave as the contract asks`,
      );
  },
};

type Suite = { capability: string; run: (options: RunOptions) => Promise<ConformanceReport> };

function parseOptions(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--options is not JSON (${(error as Error).message})`, helpFor(providerTestCommand));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError('--options must be a JSON object, e.g. {"file":"cards.json"}', helpFor(providerTestCommand));
  return value as Record<string, unknown>;
}

/** Which suites a name stands for: a built-in's capabilities, or what the module exports. */
function suitesFor(target: string, cwd: string): Suite[] {
  const card = (BUILT_IN_PROVIDERS['card.storage'] as readonly string[]).includes(target);
  const attachment = (BUILT_IN_PROVIDERS['attachment.storage'] as readonly string[]).includes(target);
  if (card || attachment) {
    return [
      ...(card
        ? [
            {
              capability: 'card.storage',
              run: (o: RunOptions) => runCardStoreConformance(builtInCardStoreFactory(target), o),
            },
          ]
        : []),
      ...(attachment
        ? [
            {
              capability: 'attachment.storage',
              run: (o: RunOptions) => runAttachmentStoreConformance(builtInAttachmentStoreFactory(target), o),
            },
          ]
        : []),
    ];
  }
  const module = loadTarget(target, cwd);
  const suites: Suite[] = [];
  const { createCardStore, createAttachmentStore } = module;
  if (typeof createCardStore === 'function')
    suites.push({ capability: 'card.storage', run: (o) => runCardStoreConformance(createCardStore, o) });
  if (typeof createAttachmentStore === 'function')
    suites.push({
      capability: 'attachment.storage',
      run: (o) => runAttachmentStoreConformance(createAttachmentStore, o),
    });
  if (!suites.length) {
    const exported = Object.keys(module).filter((key) => key !== '__esModule');
    throw new CliError(
      `"${target}" exports neither createCardStore(options, context) nor createAttachmentStore(options, context) (it exports: ${exported.join(', ') || 'nothing'})`,
    );
  }
  return suites;
}

/** A path on disk (as typed, relative to here) or a package installed where the command runs. */
function loadTarget(target: string, cwd: string): StorageProviderModule {
  const asPath = target.startsWith('.') || path.isAbsolute(target) || existsSync(path.resolve(cwd, target));
  try {
    return loadPluginModule('storage', asPath ? path.resolve(cwd, target) : target, cwd) as StorageProviderModule;
  } catch (error) {
    if (error instanceof PluginModuleError)
      throw new CliError(
        `cannot load "${target}": ${error.reason}${error.notFound ? ' (a package must be installed where the command runs; a file is named by its path)' : ''}`,
      );
    throw error;
  }
}

function resultLine(output: Output, result: CheckResult): string {
  const time = `(${result.ms} ms)`;
  if (result.status === 'pass') return `  ${paint(output, '32', '✓')} ${result.name} ${time}`;
  if (result.status === 'skip') return `  - ${result.name} (skipped: ${result.message})`;
  const detail = (result.message ?? '')
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');
  return `  ${paint(output, '31', '✗')} ${result.name} ${time}\n${detail}`;
}
