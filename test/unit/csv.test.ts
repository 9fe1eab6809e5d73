import { strict as assert } from 'node:assert';
import { csvRows, parseCsv, writeCsv } from '../../server/core/csv';

describe('CSV (RFC 4180)', () => {
  it('when fields are quoted, then commas, doubled quotes and line breaks inside them belong to the field', () => {
    const text = 'title,body\r\n"Fix, then ship","He said ""no""\nand left"\r\nplain,\r\n';
    assert.deepEqual(parseCsv(text), [
      ['title', 'body'],
      ['Fix, then ship', 'He said "no"\nand left'],
      ['plain', ''],
    ]);
  });

  it('when lines end with LF only, or the last line has no break, then records are the same', () => {
    assert.deepEqual(parseCsv('a,b\n1,2'), [
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('when a file starts with a byte order mark and has blank lines, then neither becomes data', () => {
    assert.deepEqual(csvRows('\ufeffTitle,Due\n\nA,2026-01-02\n'), [{ title: 'A', due: '2026-01-02' }]);
  });

  it('when a quote is never closed, then the error names the line it opened on', () => {
    assert.throws(() => parseCsv('title\n"open\nstill open'), /opened on line 2 is never closed/);
  });

  it('when records are written and read back, then every field survives', () => {
    const records = [
      ['id', 'text'],
      ['1', 'comma, "quote"\nnew line'],
      ['2', ' padded '],
    ];
    assert.deepEqual(parseCsv(writeCsv(records)), records);
  });
});
