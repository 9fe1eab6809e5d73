import { runMcpCommand } from './command';

// Entry of dist/mcp.js: the MCP server alone, as the VS Code extension and the tests start it.
void runMcpCommand(process.argv.slice(2)).then(() => process.exit());
