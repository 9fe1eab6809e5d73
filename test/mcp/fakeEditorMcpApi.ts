/**
 * VS Code 1.101's MCP server definition API as the vscode test double has it: the definition
 * classes and the providers the extension registered, under the names these tests use.
 */
import '../extension/helpers/installVscodeDouble';
import { double, McpHttpServerDefinition, McpStdioServerDefinition } from '../extension/helpers/vscodeDouble';

export { McpStdioServerDefinition as FakeStdioDefinition, McpHttpServerDefinition as FakeHttpDefinition };

export interface FakeProvider {
  provideMcpServerDefinitions(): Promise<(McpStdioServerDefinition | McpHttpServerDefinition)[]>;
  onDidChangeMcpServerDefinitions?: (listener: () => void) => { dispose(): void };
}

/** Providers the extension registered, by id (the double's own map: a new activation clears it). */
export const registeredMcpProviders = double.mcpProviders as unknown as Map<string, FakeProvider>;
