import { memo } from 'preact/compat';
import { useIsDoneColumn } from '../context';
import { agentSummary } from '../agents';
import { fileNameOf, hueOf, initials, isDueToday, isOverdue, shortDate, textOn } from '../format';
import { DELETED_STATUS, type Labels, type Settings, type TaskView } from '../types';
import { CardAgent } from './CardAgent';
import { RestoreButton } from './drawer/RestoreButton';
import { Icon } from './Icon';
import { useTimeLeft } from './useTimeLeft';

export interface CardViewProps {
  task: TaskView;
  labels: Labels;
  settings: Settings;
  /** Picked for a bulk edit. */
  selected?: boolean;
  /**
   * Laid out even when out of view: a windowed column draws few cards and measures them, so the
   * browser's skipping of off-screen cards (content-visibility) would only give it wrong heights.
   */
  laidOut?: boolean;
}

export function LabelChip({ name, labels }: { name: string; labels: Labels }) {
  const color = labels[name]?.color ?? '#94a3b8';
  return (
    <span
      class="label-chip"
      style={{ background: color, color: textOn(color) }}
      title={labels[name]?.group ? `${labels[name]?.group}: ${name}` : name}
    >
      {name}
    </span>
  );
}

export function Avatar({ name, size = 'sm' }: { name: string; size?: 'sm' | 'md' }) {
  return (
    <span class={`avatar avatar-${size}`} style={{ background: `hsl(${hueOf(name)} 62% 46%)` }} aria-hidden="true">
      {initials(name)}
    </span>
  );
}

function DueChip({ task }: { task: TaskView }) {
  if (!task.dueDate) return null;
  const done = useIsDoneColumn(task.status);
  const overdue = isOverdue(task.dueDate, done);
  const today = !overdue && isDueToday(task.dueDate);
  const state = overdue ? ' is-overdue' : today ? ' is-today' : done ? ' is-done' : '';
  return (
    <span class={`chip due-chip${state}`} title={overdue ? `Overdue: due ${task.dueDate}` : `Due ${task.dueDate}`}>
      <Icon name="calendar" size={12} />
      {shortDate(task.dueDate)}
    </span>
  );
}

/** How many sub-cards the card has and how many are done ("2/5"), beside the checklist count. */
export function SubCardsChip({ children }: { children: TaskView['children'] }) {
  const label = `${children.done} of ${children.total} sub-cards done`;
  return (
    <span
      class={`chip subcards-chip${children.done === children.total ? ' is-complete' : ''}`}
      data-testid="subcards-chip"
      role="img"
      aria-label={label}
      title={label}
    >
      <Icon name="subcards" size={12} />
      {children.done}/{children.total}
    </span>
  );
}

/**
 * One card on the board. Pointer, click and key handling live on the board (one listener for a
 * thousand cards); this only draws. Each part follows its display setting. Only a claimed card keeps
 * a clock (its time left), so ten thousand free cards cost no timer and no hook.
 */
export const CardView = memo(function CardView(props: CardViewProps) {
  return props.task.claim ? <ClaimedCard {...props} /> : <CardBody {...props} left={0} />;
});

function ClaimedCard(props: CardViewProps) {
  return <CardBody {...props} left={useTimeLeft(props.task.claim ?? null)} />;
}

/** `left`: the claim's time left in ms, 0 when there is none or it ran out. */
function CardBody({ task, labels, settings, selected, laidOut, left }: CardViewProps & { left: number }) {
  const classes = ['card', `priority-${task.priority}`];
  if (settings.compactMode) classes.push('is-compact');
  if (task.cardState?.unread) classes.push('is-unread');
  if (selected) classes.push('is-selected');
  const showLabels = settings.showLabels && task.labels.length > 0;
  const attachments = task.attachments?.length ?? 0;
  const atWork = Boolean(task.claim || task.session);
  const agent = atWork ? agentSummary(task, left) : '';
  return (
    <article
      class={classes.join(' ')}
      style={laidOut ? { contentVisibility: 'visible' } : undefined}
      data-card-id={task.id}
      tabIndex={0}
      aria-roledescription="card"
      aria-label={`${task.title}, ${task.priority} priority${agent ? `, ${agent}` : ''}${selected ? ', selected' : ''}`}
    >
      {showLabels && (
        <div class="card-labels">
          {task.labels.map((name) => (
            <LabelChip key={name} name={name} labels={labels} />
          ))}
        </div>
      )}
      <div class="card-title">{task.title || task.id}</div>
      {atWork && <CardAgent task={task} left={left} />}
      {/* Out of the tab order: a focused card opens the same menu with Shift+F10. */}
      <button
        type="button"
        class="card-menu-btn icon-btn"
        data-card-menu
        tabIndex={-1}
        aria-label="Card actions"
        title="Card actions"
      >
        <Icon name="more" size={14} />
      </button>
      <div class="card-meta">
        {settings.showPriorityBadges && (
          <span class={`chip priority-badge priority-${task.priority}`}>{task.priority}</span>
        )}
        {settings.showDueDate && <DueChip task={task} />}
        {task.openBlockers > 0 && (
          <span
            class="chip blocked-badge"
            data-testid="blocked-badge"
            title={`Waits for ${task.openBlockers} open card(s); ready when each is done or archived`}
          >
            blocked by {task.openBlockers}
          </span>
        )}
        {task.checklist && (
          <span
            class={`chip checklist-chip${task.checklist.done === task.checklist.total ? ' is-complete' : ''}`}
            data-testid="checklist-chip"
            title={`Checklist: ${task.checklist.done} of ${task.checklist.total} done`}
          >
            <Icon name="check" size={12} />
            {task.checklist.done}/{task.checklist.total}
          </span>
        )}
        {task.children.total > 0 && <SubCardsChip children={task.children} />}
        {task.commentCount > 0 && (
          <span class="chip subtle" title={`${task.commentCount} comment(s)`}>
            <Icon name="comment" size={12} />
            {task.commentCount}
          </span>
        )}
        {attachments > 0 && (
          <span class="chip subtle" title={`${attachments} attachment(s)`}>
            <Icon name="paperclip" size={12} />
            {attachments}
          </span>
        )}
        {settings.showAssignee && task.assignee && (
          <span class="assignee" title={`Assigned to ${task.assignee}`}>
            <Avatar name={task.assignee} />
            {!settings.compactMode && <span class="assignee-name">{task.assignee}</span>}
          </span>
        )}
      </div>
      {task.status === DELETED_STATUS && <RestoreButton taskId={task.id} />}
      {settings.showFileName && (
        <div class="card-file" title={task.filePath ?? ''}>
          <Icon name="file" size={11} />
          {fileNameOf(task.filePath, task.id)}
        </div>
      )}
    </article>
  );
}
