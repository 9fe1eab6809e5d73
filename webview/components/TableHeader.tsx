import { ROUTE_SORT, type TableField, type TableSort } from '../state/tableRows';
import { Icon } from './Icon';

export interface TableColumn {
  field: TableField;
  name: string;
  /** A CSS grid track: the column's width. */
  width: string;
}

const COLUMNS: TableColumn[] = [
  { field: 'title', name: 'Title', width: 'minmax(220px, 3fr)' },
  { field: 'status', name: 'Status', width: 'minmax(130px, 1fr)' },
  { field: 'priority', name: 'Priority', width: '112px' },
  { field: 'assignee', name: 'Assignee', width: 'minmax(130px, 1fr)' },
  { field: 'due', name: 'Due', width: '142px' },
  { field: 'labels', name: 'Labels', width: 'minmax(150px, 1.4fr)' },
  { field: 'checklist', name: 'Checklist', width: '96px' },
  { field: 'blocked', name: 'Blocked', width: '112px' },
  { field: 'modified', name: 'Modified', width: '132px' },
];

/** The columns shown: checklist and blocked only when a card of the board has one. */
export function columnsOf(extra: { checklist: boolean; blocked: boolean }): TableColumn[] {
  return COLUMNS.filter((c) => (c.field === 'checklist' ? extra.checklist : c.field === 'blocked' ? extra.blocked : true));
}

export function templateOf(columns: TableColumn[]): string {
  return columns.map((c) => c.width).join(' ');
}

function sortedBy(sort: TableSort | null, field: TableField): 'ascending' | 'descending' | undefined {
  if (!sort || (sort.field !== field && sort.field !== ROUTE_SORT[field])) return undefined;
  return sort.descending ? 'descending' : 'ascending';
}

/** Column names as buttons: a click sorts by the column, a second click reverses it. Stays on top while scrolling. */
export function TableHeader({ columns, sort, onSort }: { columns: TableColumn[]; sort: TableSort | null; onSort(field: TableField): void }) {
  return (
    <div class="table-head" role="rowgroup">
      <div class="table-row table-head-row" role="row" aria-rowindex={1}>
        {columns.map((c, i) => {
          const order = sortedBy(sort, c.field);
          return (
            <div key={c.field} class="table-cell" role="columnheader" aria-colindex={i + 1} aria-sort={order ?? 'none'} data-field={c.field}>
              <button type="button" class={`table-sort${order ? ' is-sorted' : ''}`} title={`Sort by ${c.name.toLowerCase()}`} onClick={() => onSort(c.field)}>
                {c.name}
                {order && (
                  <span class={`table-sort-arrow is-${order}`} aria-hidden="true">
                    <Icon name="chevronDown" size={12} />
                  </span>
                )}
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}
