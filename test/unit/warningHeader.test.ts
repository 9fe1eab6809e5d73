import { strict as assert } from 'node:assert';
import { warningHeaderValue } from '../../server/api/app';
import { warningTexts } from '../../webview/httpTransport';

describe('Warning header: what the server writes, the page reads back', () => {
  it('when the server sends two warnings, one with quotes and a backslash, then the page gets both texts as written', () => {
    const texts = ['column Doing is over its WIP limit (4/3)', 'column "Q\\A" is over its WIP limit (2/1)'];
    // fetch joins repeated headers with ", ".
    const joined = texts.map(warningHeaderValue).join(', ');
    assert.deepEqual(warningTexts(joined), texts);
  });

  it('when there is no Warning header, then there are no warnings', () => {
    assert.deepEqual(warningTexts(null), []);
    assert.deepEqual(warningTexts(''), []);
  });
});
