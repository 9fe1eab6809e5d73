import { strict as assert } from 'node:assert';
import * as yaml from 'js-yaml';
import { AGENT_LOOP } from '../../server/core/agentLoop';
import { findSection, sectionBlock, withSection } from '../../server/core/markedSection';
import { SKILL_TARGETS, hasSkill, installedText, skillState } from '../../server/core/skillFiles';

const frontmatterOf = (text: string) => yaml.load(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]) as Record<string, unknown>;

describe("Marked sections: kanban's block inside a file people edit", () => {
  const block = sectionBlock('skill', 'new text\n', 'v2');

  it('when the file has no block, then the block is added at the end after a blank line, and a missing file is just the block', () => {
    assert.equal(withSection('# Notes\nmine', 'skill', block, 'AGENTS.md'), `# Notes\nmine\n\n${block}\n`);
    assert.equal(withSection(null, 'skill', block, 'AGENTS.md'), `${block}\n`);
  });

  it('when the file has a block, then only the block changes, whatever surrounds it', () => {
    const before = `# Top\r\n\n<!-- kanban:skill v1 -->\nold\n<!-- /kanban:skill -->\ntail without newline`;
    assert.equal(withSection(before, 'skill', block, 'AGENTS.md'), `# Top\r\n\n${block}\ntail without newline`);
    assert.deepEqual(findSection(before, 'skill', 'AGENTS.md')?.attrs, 'v1');
    assert.equal(findSection(before, 'context', 'AGENTS.md'), null, 'another name is another block');
  });

  it('when a marker lacks its partner or the block is there twice, then the file is refused with what to fix', () => {
    assert.throws(
      () => findSection('<!-- kanban:skill v1 -->\nno end', 'skill', 'AGENTS.md'),
      /AGENTS.md has an unmatched <!-- kanban:skill --> marker/,
    );
    assert.throws(() => findSection('text\n<!-- /kanban:skill -->', 'skill', 'AGENTS.md'), /unmatched/);
    assert.throws(() => findSection(`${block}\n${block}`, 'skill', 'AGENTS.md'), /has 2 <!-- kanban:skill --> blocks/);
  });
});

describe('Skill files: the agent loop for each agent tool', () => {
  it('when a target is installed, then its file carries the loop and the version, with the frontmatter its tool reads', () => {
    for (const target of SKILL_TARGETS) {
      const text = installedText(target, '1.2.3', null);
      assert.ok(
        text.includes(`<!-- kanban:skill v1.2.3 -->\n${AGENT_LOOP.trimEnd()}\n<!-- /kanban:skill -->\n`),
        target,
      );
      assert.deepEqual(skillState(target, '1.2.3', text), { state: 'ok' }, target);
    }
    const claude = frontmatterOf(installedText('claude', '1.2.3', null));
    assert.deepEqual(Object.keys(claude), ['name', 'description']);
    assert.equal(claude.name, 'kanban');
    assert.match(String(claude.description), /kanban board.*Use when/);
    const cursor = frontmatterOf(installedText('cursor', '1.2.3', null));
    assert.deepEqual([typeof cursor.description, cursor.alwaysApply], ['string', false]);
  });

  it('when a copy is of another version, edited or gone, then its state says which', () => {
    const text = installedText('agents', '1.2.3', '# Project rules\n');
    assert.deepEqual(skillState('agents', '1.2.4', text), { state: 'outdated', installed: '1.2.3' });
    assert.deepEqual(skillState('agents', '1.2.3', text.replace('Pick:', 'Choose:')), { state: 'edited' });
    assert.deepEqual(skillState('agents', '1.2.3', '# Project rules\n'), { state: 'missing' });
    assert.deepEqual(skillState('agents', '1.2.3', null), { state: 'missing' });
    assert.equal(skillState('agents', '1.2.3', text.replace('<!-- /kanban:skill -->', '')).state, 'edited');
    const claude = installedText('claude', '1.2.3', null);
    assert.deepEqual(
      skillState('claude', '1.2.3', claude.replace('name: kanban', 'name: board')),
      { state: 'edited' },
      'the frontmatter counts in a file of its own',
    );
    assert.deepEqual(
      skillState('agents', '1.2.3', `${text}\nmore of the project's own rules\n`),
      { state: 'ok' },
      'the rest of a shared file does not',
    );
  });

  it('when check looks for installed copies, then a shared file counts only with a marker, a file of its own by being there', () => {
    assert.equal(hasSkill('agents', '# Project rules\n'), false);
    assert.equal(hasSkill('agents', installedText('agents', '1', null)), true);
    assert.equal(hasSkill('claude', 'anything'), true);
    assert.equal(hasSkill('claude', null), false);
  });
});
