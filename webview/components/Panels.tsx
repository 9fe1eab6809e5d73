import { useAppState } from '../context';
import { CardDrawer } from './drawer/CardDrawer';
import { BoardPanel } from './panels/BoardPanel';
import { LabelsPanel } from './panels/LabelsPanel';
import { ArchivePanel } from './panels/ArchivePanel';
import { SettingsPanel } from './SettingsPanel';
import { ShortcutsHelp } from './ShortcutsHelp';

/** The one layer open over the board, if any: a panel or the card drawer. */
export function Panels() {
  const { panel, openTaskId } = useAppState();
  if (panel === 'settings') return <SettingsPanel />;
  if (panel === 'labels') return <LabelsPanel />;
  if (panel === 'archive') return <ArchivePanel />;
  if (panel === 'shortcuts') return <ShortcutsHelp />;
  if (panel === 'board' || panel === 'new-board')
    return <BoardPanel key={panel} mode={panel === 'board' ? 'edit' : 'new'} />;
  if (openTaskId) return <CardDrawer key={openTaskId} taskId={openTaskId} />;
  return null;
}
