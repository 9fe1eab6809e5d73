import * as path from 'node:path';

/** The extension's settings (`contributes.configuration` in package.json), read fresh each time. */
export interface KanbanSettings {
  autoStart: boolean;
  port: number;
  host: string;
  /** Workspace-relative folder that holds `.kanban.json` and `.kanban/`; '' is the folder itself. */
  location: string;
}

export const SETTINGS_SECTION = 'kanban';
export const DEFAULT_SETTINGS: KanbanSettings = { autoStart: false, port: 3000, host: '127.0.0.1', location: '' };

/** The part of `vscode.WorkspaceConfiguration` we read, so this file needs no editor to test. */
export interface ConfigurationReader {
  get<T>(key: string): T | undefined;
}

/**
 * Values as the user typed them may be wrong (a port of 70000, a host with spaces); each bad value
 * falls back to its default and is reported, so a typo never stops the extension.
 */
export function readSettings(config: ConfigurationReader): { settings: KanbanSettings; problems: string[] } {
  const problems: string[] = [];
  const autoStart = config.get<unknown>('server.autoStart');
  const port = config.get<unknown>('server.port');
  const host = config.get<unknown>('server.host');
  const location = config.get<unknown>('location');
  const settings = { ...DEFAULT_SETTINGS };
  if (typeof autoStart === 'boolean') settings.autoStart = autoStart;
  if (port !== undefined) {
    if (typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65535) settings.port = port;
    else
      problems.push(
        `kanban.server.port must be a whole number from 0 to 65535 (got ${JSON.stringify(port)}); using ${DEFAULT_SETTINGS.port}`,
      );
  }
  if (host !== undefined) {
    if (typeof host === 'string' && /^[A-Za-z0-9.:-]+$/.test(host.trim())) settings.host = host.trim();
    else
      problems.push(
        `kanban.server.host must be an address such as 127.0.0.1 (got ${JSON.stringify(host)}); using ${DEFAULT_SETTINGS.host}`,
      );
  }
  if (location !== undefined) {
    const problem = locationProblem(location);
    if (problem) problems.push(`kanban.location ${problem}; using the workspace folder itself`);
    else settings.location = normalizeLocation(location as string);
  }
  return { settings, problems };
}

function locationProblem(location: unknown): string | null {
  if (typeof location !== 'string') return `must be a folder path (got ${JSON.stringify(location)})`;
  if (path.isAbsolute(location) || /^[A-Za-z]:[\\/]/.test(location))
    return `must be relative to the workspace folder (got "${location}")`;
  const parts = location.split(/[\\/]+/);
  if (parts.includes('..')) return `must stay inside the workspace folder (got "${location}")`;
  return null;
}

function normalizeLocation(location: string): string {
  return location
    .split(/[\\/]+/)
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

/** The kanban root (where `.kanban.json` and `.kanban/` live) of a workspace folder. */
export function kanbanRoot(folderPath: string, settings: Pick<KanbanSettings, 'location'>): string {
  return settings.location ? path.join(folderPath, ...settings.location.split('/')) : folderPath;
}
