import { strict as assert } from 'node:assert';
import { describeInBothModes, expectCode, jsonOf, restData } from './helpers';

/** Checklist commands, --blocked-by and --ready, as the built `kanban`, in both modes. */
describeInBothModes('kanban checklists and dependencies', (cli) => {
  const { k } = cli;

  it('when checklist add, check, uncheck and remove run, then the card text changes and the output lists the items', async () => {
    const card = jsonOf(await k('add', 'Release notes', '--body=- [ ] draft\n- [ ] review', '--json'));
    const added = expectCode(await k('checklist', 'add', card.id.slice(0, 8), 'publish'), 0).stdout;
    assert.match(added, /\[ \] 2 {2}publish/);
    assert.match(expectCode(await k('check', card.id, '1'), 0).stdout, /\[x\] 1 {2}review\n.*1\/3 done/s);
    const shown = expectCode(await k('checklist', card.id), 0).stdout;
    assert.match(shown, /\[ \] 0 {2}draft\n\[x\] 1 {2}review\n\[ \] 2 {2}publish/);
    jsonOf(await k('uncheck', card.id, '1', '--json'));
    const removed = jsonOf(await k('checklist', 'remove', card.id, '0', '--json'));
    assert.deepEqual(removed.checklistItems, [
      { index: 0, text: 'review', done: false },
      { index: 1, text: 'publish', done: false },
    ]);
    assert.equal(
      (await restData(cli.mode, `/api/tasks/${card.id}`)).content,
      '# Release notes\n\n- [ ] review\n- [ ] publish\n',
    );
  });

  it('when an index is out of range or not a number, then exit 1 or 2 with a message saying so', async () => {
    const card = jsonOf(await k('add', 'Short list', '--body=- [ ] only', '--json'));
    assert.match(
      expectCode(await k('check', card.id, '5'), 1).stderr,
      /no checklist item 5: items are numbered 0 to 0/,
    );
    assert.match(expectCode(await k('check', card.id, 'first'), 2).stderr, /whole number/);
  });

  it('when add and edit take --blocked-by with a partial id, then show names the blocker and list --ready leaves the card out', async () => {
    const blocker = jsonOf(await k('add', 'Pour the foundation', '--json'));
    const card = jsonOf(await k('add', 'Build the walls', '--blocked-by', 'pour-the', '--json'));
    assert.deepEqual([card.blockedBy, card.blocked], [[blocker.id], true]);
    assert.match(
      expectCode(await k('show', card.id), 0).stdout,
      new RegExp(`blocked by\\s+${blocker.id} \\(waiting\\)`),
    );
    const ready = jsonOf(await k('list', '--ready', '--json')).map((c: any) => c.id);
    assert.ok(ready.includes(blocker.id) && !ready.includes(card.id), JSON.stringify(ready));
    const table = expectCode(await k('list', '--fields', 'title,checklist,blocked'), 0).stdout;
    assert.match(table, /TITLE\s+CHECKLIST\s+BLOCKED/);
    assert.match(table, /Build the walls\s+yes/);
    const cleared = jsonOf(await k('edit', card.id, '--blocked-by', '', '--json'));
    assert.deepEqual([cleared.blockedBy, cleared.blocked], [[], false]);
    assert.match(
      expectCode(await k('edit', card.id, '--blocked-by', card.id), 1).stderr,
      /cannot be blocked by itself/,
    );
  });
});
