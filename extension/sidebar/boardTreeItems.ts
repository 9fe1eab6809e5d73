import * as vscode from 'vscode';

export interface ColumnNode {
  kind: 'column';
  folderKey: string;
  boardId: string;
  columnId: string;
  name: string;
  count: number;
  minimized: boolean;
}

/** A card row; `boardId` and `taskId` make it a ref that Open Card File accepts as it is. */
export interface CardNode {
  kind: 'card';
  folderKey: string;
  boardId: string;
  taskId: string;
  status: string;
  title: string;
  priority: string;
  assignee: string | null;
  dueDate: string | null;
  position: number;
}

export type BoardNode = ColumnNode | CardNode;

export const OPEN_ON_BOARD_COMMAND = 'kanban.sidebar.openCard';

export function columnItem(node: ColumnNode): vscode.TreeItem {
  // A column minimized on the board starts folded here too; VS Code then keeps the user's choice.
  const item = new vscode.TreeItem(
    node.name,
    node.minimized ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded,
  );
  item.id = `column:${node.boardId}:${node.columnId}`;
  item.description = String(node.count);
  item.tooltip = `${node.name}: ${node.count} card(s). Drop a card here to move it to the top of this column.`;
  item.contextValue = 'kanbanColumn';
  return item;
}

export function cardItem(node: CardNode, today: string): vscode.TreeItem {
  const item = new vscode.TreeItem(node.title, vscode.TreeItemCollapsibleState.None);
  item.id = `card:${node.boardId}:${node.taskId}`;
  const overdue = node.dueDate !== null && node.dueDate.slice(0, 10) < today;
  item.description = [
    node.priority === 'critical' || node.priority === 'high' ? node.priority : '',
    node.assignee ?? '',
    overdue ? `due ${node.dueDate}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  item.tooltip = new vscode.MarkdownString(
    [
      `**${escapeMarkdown(node.title)}**`,
      `${node.priority} priority`,
      node.assignee ? `assigned to ${escapeMarkdown(node.assignee)}` : '',
      node.dueDate ? `due ${node.dueDate}${overdue ? ' (overdue)' : ''}` : '',
      `\`${node.taskId}\``,
    ]
      .filter(Boolean)
      .join('  \n'),
  );
  item.iconPath = new vscode.ThemeIcon(overdue ? 'warning' : node.priority === 'critical' ? 'flame' : 'note');
  item.contextValue = 'kanbanCard';
  item.command = { title: 'Open on Board', command: OPEN_ON_BOARD_COMMAND, arguments: [node] };
  return item;
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
