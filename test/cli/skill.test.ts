import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { AGENT_LOOP } from '../../server/core/agentLoop';
import { SKILL_FILES, SKILL_TARGETS } from '../../server/core/skillFiles';
import { version } from '../../package.json';
import { buildCli, expectCode, jsonOf, kanban } from './helpers';
import { GIT_ENV, commitAll, gitStatus, initRepo } from './gitRepo';

/** `kanban skill install|check`: the agent loop in the files each agent tool reads, in a real git repository. */

const MARKER = `<!-- kanban:skill v${version} -->`;

describe('CLI: kanban skill install and check', function () {
  this.timeout(90_000);
  let tmp: string;
  let root: string;
  const k = (...args: string[]) => kanban([...args, '--dir', root], { env: GIT_ENV });
  const read = (target: keyof typeof SKILL_FILES) => fs.readFile(path.join(root, SKILL_FILES[target].file), 'utf8');

  before(() => buildCli());
  beforeEach(async () => ({ tmp, root } = await initRepo()));
  afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

  it('when nothing is installed, then check exits 1 saying how to install', async () => {
    const run = expectCode(await k('skill', 'check'), 1);
    assert.match(
      run.stderr,
      /no kanban skill is installed in .*; install one: kanban skill install \[--target claude\|agents\|copilot\|cursor\|all\] \(default: agents\)/,
    );
  });

  it('when each target is installed, then its file carries the loop and this version, and check passes', async () => {
    for (const target of SKILL_TARGETS) {
      const run = expectCode(await k('skill', 'install', '--target', target), 0);
      assert.equal(run.stdout, `wrote ${SKILL_FILES[target].file} (${target}, kanban ${version})\n`);
      const text = await read(target);
      assert.ok(
        text.includes(`${MARKER}\n${AGENT_LOOP.trimEnd()}\n<!-- /kanban:skill -->`),
        `${target}: the loop between the markers`,
      );
    }
    assert.match(await read('claude'), /^---\nname: kanban\ndescription: .+\n---\n/);
    assert.match(await read('cursor'), /^---\ndescription: .+\nalwaysApply: false\n---\n/);
    const check = expectCode(await k('skill', 'check'), 0);
    for (const target of SKILL_TARGETS)
      assert.match(
        check.stdout,
        new RegExp(`^ok +${target} +${SKILL_FILES[target].file.replace(/\./g, '\\.')} +kanban ${version}$`, 'm'),
      );
  });

  it('when install runs again, then nothing changes: no write, nothing for git to show', async () => {
    expectCode(await k('skill', 'install', '--target', 'all'), 0);
    commitAll(root, 'skills');
    const stamps = await Promise.all(
      SKILL_TARGETS.map(async (t) => (await fs.stat(path.join(root, SKILL_FILES[t].file))).mtimeMs),
    );
    const again = jsonOf(await k('skill', 'install', '--target', 'all', '--json'));
    assert.deepEqual(
      again.map((r: any) => [r.target, r.written]),
      SKILL_TARGETS.map((t) => [t, false]),
    );
    assert.equal(gitStatus(root), '');
    assert.deepEqual(
      await Promise.all(SKILL_TARGETS.map(async (t) => (await fs.stat(path.join(root, SKILL_FILES[t].file))).mtimeMs)),
      stamps,
    );
  });

  it("when AGENTS.md has the project's own text, then install adds the section after it and keeps every byte of it; the default target is agents", async () => {
    const own = '# How we work\r\n\nRun `npm test` before pushing.\n\n## Review\n\nTwo approvals.';
    await fs.writeFile(path.join(root, 'AGENTS.md'), own);
    expectCode(await k('skill', 'install'), 0);
    const after = await read('agents');
    assert.ok(after.startsWith(`${own}\n\n${MARKER}\n`), after);
    await fs.writeFile(path.join(root, 'AGENTS.md'), `${after}\n## Added later\n\nby hand\n`);
    await fs.writeFile(
      path.join(root, 'AGENTS.md'),
      (await read('agents')).replace(MARKER, '<!-- kanban:skill v0.0.1 -->'),
    );
    expectCode(await k('skill', 'install'), 0);
    const updated = await read('agents');
    assert.ok(
      updated.startsWith(`${own}\n\n${MARKER}\n`) &&
        updated.endsWith('<!-- /kanban:skill -->\n\n## Added later\n\nby hand\n'),
      updated,
    );
    await assert.rejects(fs.stat(path.join(root, SKILL_FILES.claude.file)), 'only AGENTS.md by default');
  });

  it('when a copy is edited by hand, from another version or deleted, then check exits 1 naming it and the install that fixes it', async () => {
    expectCode(await k('skill', 'install', '--target', 'agents,claude,copilot'), 0);
    const copilot = path.join(root, SKILL_FILES.copilot.file);
    await fs.writeFile(copilot, (await read('copilot')).replace('Pick:', 'Choose:'));
    await fs.writeFile(
      path.join(root, 'AGENTS.md'),
      (await read('agents')).replace(MARKER, '<!-- kanban:skill v0.0.1 -->'),
    );
    const run = expectCode(await k('skill', 'check'), 1);
    assert.match(run.stdout, /^ok +claude /m);
    assert.match(run.stdout, /^outdated +agents +AGENTS\.md +written by kanban 0\.0\.1$/m);
    assert.match(run.stdout, /^edited +copilot +\.github\/copilot-instructions\.md +changed since it was installed$/m);
    assert.match(
      run.stderr,
      /2 of 3 skill copies do not match kanban .*; fix: kanban skill install --target agents,copilot/,
    );

    expectCode(await k('skill', 'install', '--target', 'agents,copilot'), 0);
    expectCode(await k('skill', 'check'), 0);
    await fs.rm(path.join(root, SKILL_FILES.claude.file));
    const named = expectCode(await k('skill', 'check', '--target', 'agents,claude'), 1);
    assert.match(named.stdout, /^missing +claude +\.claude\/skills\/kanban\/SKILL\.md +not installed$/m);
    assert.match(named.stderr, /fix: kanban skill install --target claude/);
    await fs.rm(path.join(root, 'AGENTS.md'));
    await fs.rm(copilot);
    expectCode(await k('skill', 'check'), 1);
  });

  it('when kanban runs in a folder below the workspace, then the files go to the workspace folder; a bad target is a usage error', async () => {
    const sub = path.join(root, 'src', 'deep');
    await fs.mkdir(sub, { recursive: true });
    expectCode(await kanban(['skill', 'install', '--target', 'cursor'], { cwd: sub, env: GIT_ENV }), 0);
    assert.match(await read('cursor'), /kanban:skill/);
    const bad = expectCode(await k('skill', 'install', '--target', 'vim'), 2);
    assert.match(bad.stderr, /--target is one of claude, agents, copilot, cursor, all, not "vim"/);
    expectCode(await k('skill', 'publish'), 2);
  });

  it('when help or completion is asked for, then skill is listed with its actions and targets', async () => {
    assert.match(expectCode(await kanban(['--help']), 0).stdout, /^ {2}skill +Write the agent work loop/m);
    const help = expectCode(await kanban(['skill', '--help']), 0).stdout;
    for (const target of SKILL_TARGETS) assert.ok(help.includes(SKILL_FILES[target].file), target);
    const script = expectCode(await kanban(['completion', 'bash']), 0).stdout;
    const complete = async (line: string) => {
      const words = line.split(' ');
      const program = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _kanban; printf '%s\\n' "\${COMPREPLY[@]}"`;
      return (await shell(program)).trim().split('\n');
    };
    assert.deepEqual(await complete('kanban sk'), ['skill']);
    assert.deepEqual(await complete('kanban skill '), ['install', 'check']);
    assert.deepEqual(await complete('kanban skill install --target c'), ['claude', 'copilot', 'cursor']);
    assert.deepEqual(await complete('kanban --agent me sk'), ['skill'], 'the value of --agent is not the command');
  });
});

function shell(program: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('bash', ['-c', program], (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
}
