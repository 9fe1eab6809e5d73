import type { Command } from './command';
import { doctorCommand } from './doctorCommand';
import { attachCommand, commentCommand, commentsCommand, logCommand } from './activityCommands';
import { archiveCommand, restoreCommand } from './archiveCommands';
import { bulkCommand } from './bulkCommand';
import {
  addCommand,
  deleteCommand,
  editCommand,
  listCommand,
  moveCommand,
  showCommand,
  transferCommand,
} from './cardCommands';
import { startCommand } from './startCommand';
import { treeCommand } from './treeCommand';
import { claimCommand, pickCommand, releaseCommand, reportCommand } from './agentCommands';
import { contextCommand } from './contextCommand';
import { metricsCommand } from './metricsCommand';
import {
  boardsCommand,
  columnsCommand,
  labelsCommand,
  settingsCommand,
  storageCommand,
  webhooksCommand,
} from './workspaceCommands';

/**
 * The hand-written commands: positional arguments, friendly flags and tables over the same routes.
 * Each group lives in its own file; this list is the order `kanban --help` shows them in.
 */
export const everydayCommands: Command[] = [
  listCommand,
  showCommand,
  treeCommand,
  addCommand,
  editCommand,
  moveCommand,
  startCommand,
  pickCommand,
  claimCommand,
  releaseCommand,
  reportCommand,
  contextCommand,
  metricsCommand,
  deleteCommand,
  archiveCommand,
  restoreCommand,
  bulkCommand,
  transferCommand,
  commentCommand,
  commentsCommand,
  logCommand,
  attachCommand,
  boardsCommand,
  columnsCommand,
  labelsCommand,
  settingsCommand,
  webhooksCommand,
  storageCommand,
  doctorCommand,
];
