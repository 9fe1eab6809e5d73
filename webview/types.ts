/**
 * The API's read models, as the UI sees them. Type-only imports, but for the word lists of
 * core/shapes/vocabulary and the list defaults of core/shapes/listDefaults: nothing else from the
 * server is bundled.
 */
import type { BoardSummary } from '../server/service/boards';
import type { BoardView, CardClaim, Column, Comment, LabelDefinition, Settings, TaskView } from '../server/core/model';
import type { Priority, SessionState } from '../server/core/shapes/vocabulary';
import type { CardSession } from '../server/core/sessions';
import type { GitLinks } from '../server/core/gitLinkModel';
import type { LogEntry } from '../server/service/logs';
import type { FlowMetrics } from '../server/core/shapes/metrics';

export type {
  BoardSummary,
  CardClaim,
  CardSession,
  Column,
  Comment,
  FlowMetrics,
  GitLinks,
  LabelDefinition,
  LogEntry,
  Priority,
  SessionState,
  Settings,
  TaskView,
};

// The model's word lists, one copy: plain constants in a module that imports nothing.
export { BACKGROUND_PRESETS, DELETED_STATUS, PRIORITIES } from '../server/core/shapes/vocabulary';
// The compact list's empty defaults, one table for the server leaving them out and the page putting them back.
export { withListDefaults } from '../server/core/shapes/listDefaults';

/** GET /boards/{id} */
export type Board = BoardView;

export type Labels = Record<string, LabelDefinition>;

/** A JSON-Schema-style form definition (spec: Form definition). */
export interface FormSchema {
  type?: string;
  title?: string;
  properties?: Record<
    string,
    { type?: string; title?: string; description?: string; enum?: unknown[]; default?: unknown }
  >;
  required?: string[];
}

export interface WorkspaceForm {
  schema: FormSchema;
  data?: Record<string, unknown>;
}

export interface TaskFilter {
  q: string;
  fuzzy: boolean;
  priority: string;
  assignee: string;
  label: string;
  labelGroup: string;
  /** A due-date window of the list route: overdue, today, week or none ('' for any). */
  due: string;
  /** Only cards ready to start: not blocked and not in the last column (the list route's ready=true). */
  ready: boolean;
  /** 'true': only cards an agent holds; 'false': only free ones; '' for any (the list route's claimed). */
  claimed: '' | 'true' | 'false';
  /** Only cards this agent holds or last reported on ('' for any; the list route's byAgent). */
  byAgent: string;
}

export const EMPTY_FILTER: TaskFilter = {
  q: '',
  fuzzy: false,
  priority: '',
  assignee: '',
  label: '',
  labelGroup: '',
  due: '',
  ready: false,
  claimed: '',
  byAgent: '',
};

export function filterIsActive(filter: TaskFilter): boolean {
  return Boolean(
    filter.q.trim() ||
    filter.priority ||
    filter.assignee ||
    filter.label ||
    filter.labelGroup ||
    filter.due ||
    filter.ready ||
    filter.claimed ||
    filter.byAgent,
  );
}
