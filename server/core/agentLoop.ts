import { DEFAULT_CLAIM_SECONDS } from './claims';

/**
 * How an agent works the board, as one short Markdown text: every installed skill file (`kanban
 * skill install`) and the MCP instructions resource carry exactly this, so what Claude, Copilot,
 * Cursor and an MCP client are told never disagrees. Each step names the command and, in brackets,
 * the MCP tool that does the same. Kept short on purpose: agents load it into every session.
 */
export const AGENT_LOOP = `## Kanban: how to work the board

Cards are Markdown files under \`.kanban/\`: change them through \`kanban\` (or the MCP tool in brackets), not by editing the files. Name yourself once: \`export KANBAN_AGENT=<your-name>\`. An id may be shortened to a unique prefix; \`--json\` on any command prints the REST answer.

1. Look: \`kanban context\` lists what is in progress, awaiting input, blocked, and next. [\`get_board_context\`]
2. Pick: \`kanban pick --json\` claims the best ready card for you alone (${DEFAULT_CLAIM_SECONDS / 60}-minute lease); \`--move-to <column>\` also moves it. Exit 3: nothing is ready, stop. [\`pick_card\`]
3. Report: \`kanban report <id> active --note "<what you do>"\` when you start and at each step; a report renews your claim. [\`report_progress\`]
4. Leave a trail: \`kanban comment <id> "<text>"\` for people, \`kanban log <id> "<text>"\` for progress notes. [\`add_comment\`, \`add_log\`]
5. Need a person: \`kanban report <id> awaitingInput --note "<question>"\`, then read the answer with \`kanban comments <id>\`. Failed: state \`error\`.
6. Move: \`kanban move <id> <column>\` as the work advances; \`kanban columns\` lists them. [\`move_card\`]
7. Complete: move it to the last column, then \`kanban report <id> complete --link <pull request>\`, which releases your claim. [\`report_progress\`]

Leave cards other agents claim alone: changes to them are refused (exit 1, 409). Giving up a card: \`kanban release <id>\` [\`release_card\`]. A 409 or 412 means the card changed: \`kanban show <id>\` [\`get_card\`] and retry.
`;
