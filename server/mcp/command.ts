// Placeholder: the MCP server's own command replaces this file when it is merged.
export async function runMcpCommand(argv: string[]): Promise<void> {
  void argv;
  process.stderr.write('kanban mcp: not available in this build\n');
  process.exitCode = 1;
}
