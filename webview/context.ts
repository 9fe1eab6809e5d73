import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { useSyncExternalStore } from 'preact/compat';
import { DELETED_STATUS } from '../server/core/shapes/vocabulary';
import type { BoardController } from './state/controller';
import { useStore } from './state/store';

export const ControllerContext = createContext<BoardController | null>(null);

export function useController(): BoardController {
  const controller = useContext(ControllerContext);
  if (!controller) throw new Error('useController outside the board app');
  return controller;
}

export function useAppState() {
  return useStore(useController().store);
}

/**
 * Whether a card in this column is done: the shown board's last column. Read as one value, so a
 * card redraws only when the last column changes, not on every change of the board's state.
 */
export function useIsDoneColumn(status: string): boolean {
  const { store } = useController();
  const last = useSyncExternalStore(store.subscribe, () => lastColumnId(store.get().board));
  return status === last;
}

function lastColumnId(board: { columns: { id: string }[] } | null): string | undefined {
  return board?.columns.filter((column) => column.id !== DELETED_STATUS).at(-1)?.id;
}
