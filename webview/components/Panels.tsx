import { useAppState } from '../context';
import { SettingsPanel } from './SettingsPanel';

/** The one layer open over the board, if any: a panel or the card drawer. */
export function Panels() {
  const { panel } = useAppState();
  if (panel === 'settings') return <SettingsPanel />;
  return null;
}
