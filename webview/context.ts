import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
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
