import { useAppState } from '../context';
import { CardDrawer } from './drawer/CardDrawer';
import { SettingsPanel } from './SettingsPanel';

/** The one layer open over the board, if any: a panel or the card drawer. */
export function Panels() {
  const { panel, openTaskId } = useAppState();
  if (panel === 'settings') return <SettingsPanel />;
  if (openTaskId) return <CardDrawer key={openTaskId} taskId={openTaskId} />;
  return null;
}
