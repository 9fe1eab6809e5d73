/**
 * VS Code 1.101's MCP server definition API, added to the vscode test double before any extension
 * module loads (a module's `import * as vscode` copies the names the double has at that moment).
 * Import this first.
 */
import '../extension/helpers/installVscodeDouble';

export class FakeStdioDefinition {
  constructor(
    readonly label: string,
    readonly command: string,
    readonly args: string[],
    readonly env: Record<string, string>,
    readonly version?: string,
  ) {}
}

export class FakeHttpDefinition {
  constructor(
    readonly label: string,
    readonly uri: { toString(): string },
    readonly headers?: Record<string, string>,
    readonly version?: string,
  ) {}
}

export interface FakeProvider {
  provideMcpServerDefinitions(): Promise<(FakeStdioDefinition | FakeHttpDefinition)[]>;
  onDidChangeMcpServerDefinitions?: (listener: () => void) => { dispose(): void };
}

/** Providers the extension registered, by id. */
export const registeredMcpProviders = new Map<string, FakeProvider>();

const editorApi = require('../extension/helpers/vscodeDouble') as Record<string, unknown>;
editorApi.McpStdioServerDefinition = FakeStdioDefinition;
editorApi.McpHttpServerDefinition = FakeHttpDefinition;
editorApi.lm = {
  registerMcpServerDefinitionProvider(id: string, provider: FakeProvider) {
    registeredMcpProviders.set(id, provider);
    return { dispose: () => registeredMcpProviders.delete(id) };
  },
};
