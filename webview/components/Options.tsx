import { PRIORITIES, type Column } from '../types';

/** The `<option>`s of a priority select, lowest to highest. */
export function PriorityOptions() {
  return (
    <>
      {PRIORITIES.map((p) => (
        <option key={p} value={p}>
          {p}
        </option>
      ))}
    </>
  );
}

/** The `<option>`s of a status select: a board's columns in order, by name. */
export function ColumnOptions({ columns }: { columns: readonly Column[] }) {
  return (
    <>
      {columns.map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
    </>
  );
}
