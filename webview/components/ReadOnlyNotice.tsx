import { useAppState } from '../context';

/**
 * The host shows the board but refuses every change (VS Code's Restricted Mode): said once above
 * the board, so a refused drag or save is no surprise.
 */
export function ReadOnlyNotice() {
  const { readOnlyNotice } = useAppState();
  if (!readOnlyNotice) return null;
  return (
    <div class="banner banner-warning" role="status" data-testid="read-only">
      {readOnlyNotice}
    </div>
  );
}
