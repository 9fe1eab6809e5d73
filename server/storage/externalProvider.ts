import { loadPluginModule, PluginModuleError } from '../config/pluginModule';
import type { AttachmentStore } from './attachmentStore';
import type { CardStore } from './cardStore';
import { ATTACHMENT_STORE_METHODS, CARD_STORE_METHODS, type StorageProviderContext } from './contract';
import type { ProviderOptions } from './providerOptions';

/** The two storage capabilities another package can serve, and what each one's module must export. */
export const STORAGE_CAPABILITIES = {
  'card.storage': {
    factory: 'createCardStore',
    methods: CARD_STORE_METHODS,
    builtIn: 'markdown, sqlite, mysql, postgres',
  },
  'attachment.storage': {
    factory: 'createAttachmentStore',
    methods: ATTACHMENT_STORE_METHODS,
    builtIn: 'localfs, sqlite, s3, mysql, postgres',
  },
} as const;

export type StorageCapability = keyof typeof STORAGE_CAPABILITIES;
type StoreOf<C extends StorageCapability> = C extends 'card.storage' ? CardStore : AttachmentStore;

/** What is wrong with a store's shape: empty when it has everything the contract asks. */
export function shapeProblems(capability: StorageCapability, value: unknown): string[] {
  if (typeof value !== 'object' || value === null)
    return [`it returned ${value === null ? 'null' : typeof value}, not a store object`];
  const store = value as Record<string, unknown>;
  const { methods } = STORAGE_CAPABILITIES[capability];
  const problems: string[] = [];
  if (typeof store.provider !== 'string' || store.provider === '')
    problems.push('a `provider` string (its id, shown by /api/storage)');
  const missing = methods.required.filter((name) => typeof store[name] !== 'function');
  if (missing.length)
    problems.push(`the method${missing.length > 1 ? 's' : ''} ${missing.map((m) => `${m}()`).join(', ')}`);
  const notFunctions = methods.optional.filter(
    (name) => store[name] !== undefined && typeof store[name] !== 'function',
  );
  if (notFunctions.length)
    problems.push(`${notFunctions.join(', ')} as function(s) (optional, but not a function here)`);
  return problems;
}

/**
 * Build a store with the factory a provider module exports, checking what comes back, so a
 * mistake in the package is reported at start-up as what is missing, not later as a 500.
 */
export async function createExternalStore<C extends StorageCapability>(
  capability: C,
  options: ProviderOptions,
  context: StorageProviderContext,
  loadModule: () => Record<string, unknown> = () => loadPluginModule(capability, options.provider, context.root),
): Promise<StoreOf<C>> {
  const { factory, builtIn } = STORAGE_CAPABILITIES[capability];
  let module: Record<string, unknown>;
  try {
    module = loadModule();
  } catch (error) {
    if (error instanceof PluginModuleError && error.notFound) {
      throw options.fail(
        undefined,
        `it is neither a built-in provider (${builtIn}) nor an installed package or module (${error.reason}); install the package in the workspace (npm install ${options.provider}) or name a module as ./path/to/module.js`,
      );
    }
    throw options.fail(undefined, (error as Error).message);
  }
  const create = module[factory];
  if (typeof create !== 'function') {
    const exported = Object.keys(module).filter((key) => key !== '__esModule');
    throw options.fail(
      undefined,
      `the module does not export ${factory}(options, context) (it exports: ${exported.join(', ') || 'nothing'})`,
    );
  }
  let store: unknown;
  try {
    store = await create(options.all(), { root: context.root, kanbanDir: context.kanbanDir });
  } catch (error) {
    throw options.failSetting(
      `plugins["${capability}"].options in .kanban.json`,
      `${factory}() failed: ${(error as Error)?.message ?? String(error)}`,
    );
  }
  const problems = shapeProblems(capability, store);
  if (problems.length) {
    // What it did open is released; a failure to close says nothing more than the problems.
    const close = (store as { close?: unknown } | null)?.close;
    if (typeof close === 'function') await Promise.resolve(close.call(store)).catch(() => undefined);
    throw options.fail(undefined, `${factory}() returned a store without ${problems.join('; ')}`);
  }
  return store as StoreOf<C>;
}
