import type { RouteDef } from './route';
import { boardRoutes } from './routes/boardRoutes';
import { columnRoutes } from './routes/columnRoutes';
import { taskRoutes } from './routes/taskRoutes';
import { workspaceRoutes } from './routes/workspaceRoutes';
import { webhookRoutes } from './routes/webhookRoutes';
import { cardRoutes } from './routes/cardRoutes';
import { checklistRoutes } from './routes/checklistRoutes';
import { statusRoutes } from './routes/statusRoutes';
import { logRoutes } from './routes/logRoutes';
import { storageRoutes } from './routes/storageRoutes';
import { importExportRoutes } from './routes/importExportRoutes';
import { archiveRoutes } from './routes/archiveRoutes';
import { bulkRoutes } from './routes/bulkRoutes';
import { viewRoutes } from './routes/viewRoutes';
import { doctorRoutes } from './routes/doctorRoutes';
import { claimRoutes } from './routes/claimRoutes';
import { contextRoutes } from './routes/contextRoutes';
import { metricsRoutes } from './routes/metricsRoutes';

/** Every /api route, in the order Express matches them. */
export const allRoutes: RouteDef[] = [
  ...boardRoutes,
  ...columnRoutes,
  ...bulkRoutes,
  ...claimRoutes,
  ...contextRoutes,
  ...metricsRoutes,
  ...taskRoutes,
  ...archiveRoutes,
  ...cardRoutes,
  ...checklistRoutes,
  ...logRoutes,
  ...workspaceRoutes,
  ...doctorRoutes,
  ...statusRoutes,
  ...storageRoutes,
  ...importExportRoutes,
  ...viewRoutes,
  ...webhookRoutes,
];
