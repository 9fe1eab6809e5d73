import { ROUTE_SORT, type TableField, type TableSort } from '../state/tableRows';
import { Icon } from './Icon';

export interface TableColumn {
  field: TableField;
  name: string;
  /** Narrowest width (px), and the share of the spare width it takes (fr; 0 for a fixed width). */
  min: number;
  grow: number;
}

const COLUMNS: TableColumn[] = [
  { field: 'title', name: 'Title', min: 220, grow: 3 },
  { field: 'status', name: 'Status', min: 150, grow: 1 },
  { field: 'priority', name: 'Priority', min: 112, grow: 0 },
  { field: 'assignee', name: 'Assignee', min: 130, grow: 1 },
  { field: 'due', name: 'Due', min: 142, grow: 0 },
  { field: 'labels', name: 'Labels', min: 160, grow: 1.4 },
  { field: 'checklist', name: 'Checklist', min: 96, grow: 0 },
  { field: 'blocked', name: 'Blocked', min: 112, grow: 0 },
  { field: 'modified', name: 'Modified', min: 132, grow: 0 },
];

/** The columns shown: checklist and blocked only when a card of the board has one. */
export function columnsOf(extra: { checklist: boolean; blocked: boolean }): TableColumn[] {
  return COLUMNS.filter((c) =>
    c.field === 'checklist' ? extra.checklist : c.field === 'blocked' ? extra.blocked : true,
  );
}

export function templateOf(columns: TableColumn[]): string {
  return columns.map((c) => (c.grow ? `minmax(${c.min}px, ${c.grow}fr)` : `${c.min}px`)).join(' ');
}

/** The table's narrowest width: below it the table scrolls sideways inside its box, never the page. */
export function minWidthOf(columns: TableColumn[]): string {
  // 3 px: the priority stripe on the left of each row.
  return `${columns.reduce((sum, c) => sum + c.min, 3)}px`;
}

function sortedBy(sort: TableSort | null, field: TableField): 'ascending' | 'descending' | undefined {
  if (!sort || (sort.field !== field && sort.field !== ROUTE_SORT[field])) return undefined;
  return sort.descending ? 'descending' : 'ascending';
}

/** Column names as buttons: a click sorts by the column, a second click reverses it. Stays on top while scrolling. */
export function TableHeader({
  columns,
  sort,
  onSort,
}: {
  columns: TableColumn[];
  sort: TableSort | null;
  onSort(field: TableField): void;
}) {
  return (
    <div class="table-head" role="rowgroup">
      <div class="table-row table-head-row" role="row" aria-rowindex={1}>
        {columns.map((c, i) => {
          const order = sortedBy(sort, c.field);
          return (
            <div
              key={c.field}
              class="table-cell"
              role="columnheader"
              aria-colindex={i + 1}
              aria-sort={order ?? 'none'}
              data-field={c.field}
            >
              <button
                type="button"
                class={`table-sort${order ? ' is-sorted' : ''}`}
                title={`Sort by ${c.name.toLowerCase()}`}
                onClick={() => onSort(c.field)}
              >
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
