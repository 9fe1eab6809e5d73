import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/service/workspace';
import { makeTempDir } from '../helpers/testServer';

/**
 * Each workspace runs its mutations one at a time; a mutation that calls its own workspace again
 * runs inline (no deadlock), and one that calls another workspace queues there.
 */
describe('Workspace mutations, one at a time per workspace', () => {
  let a: Workspace;
  let b: Workspace;

  before(async () => {
    a = await Workspace.open({ root: await makeTempDir('kanban-mutate-a-') });
    b = await Workspace.open({ root: await makeTempDir('kanban-mutate-b-') });
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  it('when a mutation calls its own workspace, then the inner call runs inline instead of waiting for itself', async () => {
    const steps: string[] = [];
    await a.mutate(async () => {
      steps.push('outer');
      await a.mutate(async () => steps.push('inner'));
      steps.push('outer done');
    });
    assert.deepEqual(steps, ['outer', 'inner', 'outer done']);
  });

  it('when a mutation of one workspace calls another that calls back, then each workspace runs it at once', async () => {
    const steps: string[] = [];
    await a.mutate(async () => {
      await b.mutate(async () => {
        steps.push('b');
        await a.mutate(async () => steps.push('a again, inline'));
      });
    });
    assert.deepEqual(steps, ['b', 'a again, inline']);
  });

  it('when two mutations of one workspace are started together, then the second starts after the first ends', async () => {
    const steps: string[] = [];
    let release!: () => void;
    let started!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    const first = a.mutate(async () => {
      steps.push('first starts');
      started();
      await held;
      steps.push('first ends');
    });
    const second = a.mutate(async () => steps.push('second'));
    await firstStarted;
    // Another workspace's queue is its own: it does not wait for the held one.
    await b.mutate(async () => steps.push('other workspace'));
    release();
    await Promise.all([first, second]);
    assert.deepEqual(steps, ['first starts', 'other workspace', 'first ends', 'second']);
  });
});
