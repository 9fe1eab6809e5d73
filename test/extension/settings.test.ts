import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { DEFAULT_SETTINGS, kanbanRoot, readSettings } from '../../extension/settings';

function reader(values: Record<string, unknown>) {
  return { get: <T>(key: string) => values[key] as T | undefined };
}

describe('extension settings', () => {
  it('when nothing is set, then the server is off on 127.0.0.1:3000 and the board is the folder itself', () => {
    const { settings, problems } = readSettings(reader({}));
    assert.deepEqual(settings, { autoStart: false, port: 3000, host: '127.0.0.1', location: '' });
    assert.deepEqual(problems, []);
  });

  it('when valid values are set, then they are used as given', () => {
    const { settings } = readSettings(
      reader({ 'server.autoStart': true, 'server.port': 4123, 'server.host': 'localhost', location: './docs/board/' }),
    );
    assert.deepEqual(settings, { autoStart: true, port: 4123, host: 'localhost', location: 'docs/board' });
  });

  it('when a value is wrong, then its default is used and the problem names the setting', () => {
    const { settings, problems } = readSettings(
      reader({ 'server.port': 70000, 'server.host': 'evil host; rm', location: '../outside' }),
    );
    assert.equal(settings.port, DEFAULT_SETTINGS.port);
    assert.equal(settings.host, DEFAULT_SETTINGS.host);
    assert.equal(settings.location, '');
    assert.equal(problems.length, 3);
    assert.match(problems[0], /kanban\.server\.port .*70000/);
    assert.match(problems[1], /kanban\.server\.host/);
    assert.match(problems[2], /kanban\.location must stay inside/);
  });

  it('when the location is absolute, then it is refused', () => {
    const { settings, problems } = readSettings(reader({ location: '/etc' }));
    assert.equal(settings.location, '');
    assert.match(problems[0], /relative to the workspace folder/);
  });

  it('when a location is set, then the kanban root is that folder inside the workspace folder', () => {
    assert.equal(kanbanRoot('/work/project', { location: 'docs/board' }), path.join('/work/project', 'docs', 'board'));
    assert.equal(kanbanRoot('/work/project', { location: '' }), '/work/project');
  });
});
