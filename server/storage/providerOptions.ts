import type { PluginEntry } from '../config/types';

/** Thrown when a configured provider cannot start; names the provider, the setting and the cause. */
export class ProviderError extends Error {}

/**
 * The variable a whole option value names as `${NAME}`, or null for any other value: such a value
 * is read from the environment when the store opens.
 */
export function environmentReference(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value)?.[1] ?? null;
}

/**
 * Reads one provider's options from `.kanban.json` with messages that point at the exact setting.
 * `${NAME}` values come from the environment at use time, so secrets can stay out of the file.
 */
export class ProviderOptions {
  constructor(
    readonly namespace: string,
    readonly provider: string,
    private readonly options: Record<string, unknown>,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  static of(namespace: string, entry: PluginEntry | undefined, fallbackProvider: string): ProviderOptions {
    return new ProviderOptions(namespace, entry?.provider ?? fallbackProvider, entry?.options ?? {});
  }

  /** `plugins["card.storage"].options.sqlitePath`: where a setting lives, for messages. */
  settingPath(key?: string): string {
    return key === undefined ? `plugins["${this.namespace}"].provider` : `plugins["${this.namespace}"].options.${key}`;
  }

  /** An error naming the provider, the setting and the cause. */
  fail(key: string | undefined, cause: string): ProviderError {
    return this.failSetting(`${this.settingPath(key)} in .kanban.json`, cause);
  }

  /** The same, for a setting that may come from elsewhere (an environment variable). */
  failSetting(setting: string, cause: string): ProviderError {
    return new ProviderError(
      `${this.namespace} provider "${this.provider}" cannot start: ${cause} (setting: ${setting})`,
    );
  }

  private resolve(key: string, value: unknown): unknown {
    const name = environmentReference(value);
    if (name === null) return value;
    const fromEnv = this.env[name];
    if (fromEnv === undefined) throw this.fail(key, `the environment variable ${name} is not set`);
    return fromEnv;
  }

  /** Every option, `${NAME}` values read from the environment: what an external provider gets. */
  all(): Record<string, unknown> {
    return Object.fromEntries(Object.keys(this.options).map((key) => [key, this.raw(key)]));
  }

  raw(key: string): unknown {
    return this.resolve(key, this.options[key]);
  }

  string(key: string): string | undefined {
    const value = this.raw(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw this.fail(key, `must be a string, not ${JSON.stringify(value)}`);
    return value;
  }

  requiredString(key: string): string {
    const value = this.string(key);
    if (value === undefined) throw this.fail(key, `the option "${key}" is required`);
    return value;
  }

  integer(key: string, fallback: number, min: number, max: number): number {
    const value = this.raw(key);
    if (value === undefined || value === null || value === '') return fallback;
    const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
      throw this.fail(key, `must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
    }
    return number;
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.raw(key);
    if (value === undefined || value === null || value === '') return fallback;
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    throw this.fail(key, `must be true or false, not ${JSON.stringify(value)}`);
  }
}

/** Truthy spellings of an environment flag (`SVC_S3_FORCE_PATH_STYLE=true`). */
export function envFlag(value: string | undefined): boolean | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return /^(1|true|yes|on)$/i.test(value.trim());
}
