import { strict as assert } from 'node:assert';
import { initialState } from '../../webview/state/appState';
import { restoredParts } from '../../webview/state/keptView';

describe('the view a VS Code webview keeps across a reload', () => {
  it('when the kept layout is the metrics panel, the table or the board, then it comes back', () => {
    for (const layout of ['metrics', 'table', 'board'])
      assert.equal(restoredParts({ layout }, initialState('auto')).patch.layout, layout);
  });

  it('when the kept layout is not one the board knows, then none is put back', () => {
    assert.equal('layout' in restoredParts({ layout: 'gantt' }, initialState('auto')).patch, false);
  });
});
