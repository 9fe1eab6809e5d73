import { runAutoArchive } from '../service/archive';
import type { Workspace } from '../service/workspace';
import { log } from '../core/log';

const HOUR_MS = 3_600_000;

/**
 * Archive cards that stayed long enough in the last column (boards with `autoArchiveDays`): once
 * now, then hourly. The timer is unref'd, so it never keeps a process alive; the answer stops it.
 */
export async function startAutoArchive(ws: Workspace, intervalMs = HOUR_MS): Promise<() => void> {
  const check = async () => {
    try {
      const archived = await runAutoArchive(ws);
      if (archived.length)
        log.info(`kanban: archived ${archived.length} card(s) that stayed in the last column past autoArchiveDays`);
    } catch (error) {
      // A file edited by hand refuses its write; the next run tries again.
      log.warn('kanban: auto-archive did not finish:', error);
    }
  };
  await check();
  const timer = setInterval(() => void check(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
