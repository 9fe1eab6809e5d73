import { strict as assert } from 'node:assert';
import { ConfigError, parseConfig, serializeConfig } from '../../server/config/parseConfig';
import { normalizeOrigin, originProblem } from '../../server/config/origins';

function problemAt(doc: unknown): ConfigError {
  try {
    parseConfig(JSON.stringify(doc));
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  assert.fail(`expected ${JSON.stringify(doc)} to be refused`);
}

describe('config: server.allowedOrigins', () => {
  it('when origins are scheme://host[:port], then they are read and written back as written', () => {
    const config = parseConfig(
      JSON.stringify({ server: { allowedOrigins: ['https://example.com', 'http://localhost:5173'], futureKey: 1 } }),
    );
    assert.deepEqual(config.server?.allowedOrigins, ['https://example.com', 'http://localhost:5173']);
    const again = JSON.parse(serializeConfig(config));
    assert.deepEqual(again.server, { allowedOrigins: ['https://example.com', 'http://localhost:5173'], futureKey: 1 });
  });

  it('when the file has no server key, then none is written back', () => {
    const config = parseConfig('{}');
    assert.equal('server' in config, false);
    assert.equal('server' in JSON.parse(serializeConfig(config)), false);
  });

  for (const [bad, why] of [
    ['https://example.com/', /no path/],
    ['https://example.com/app', /no path/],
    ['example.com', /not an origin/],
    ['https://example.com?x=1', /not an origin/],
    ['http://exa mple.com', /not an origin/],
    ['http://example.com:99999', /invalid/],
    ['null', /sandboxed/],
  ] as const) {
    it(`when an origin is ${JSON.stringify(bad)}, then the config is refused at $.server.allowedOrigins[1]`, () => {
      const error = problemAt({ server: { allowedOrigins: ['https://ok.example', bad] } });
      assert.equal(error.jsonPath, '$.server.allowedOrigins[1]');
      assert.match(error.problem, why);
    });
  }

  it('when allowedOrigins is not an array of strings, then the path names where', () => {
    assert.equal(problemAt({ server: { allowedOrigins: 'https://example.com' } }).jsonPath, '$.server.allowedOrigins');
    assert.equal(problemAt({ server: { allowedOrigins: [42] } }).jsonPath, '$.server.allowedOrigins[0]');
    assert.equal(problemAt({ server: [] }).jsonPath, '$.server');
  });

  it('when an origin is spelled with capitals or its default port, then it compares equal to what a browser sends', () => {
    assert.equal(normalizeOrigin('HTTPS://Example.COM:443'), 'https://example.com');
    assert.equal(normalizeOrigin('http://localhost:80'), 'http://localhost');
    assert.equal(normalizeOrigin('http://localhost:5173'), 'http://localhost:5173');
    assert.equal(originProblem('chrome-extension://abcdef'), null);
  });
});
