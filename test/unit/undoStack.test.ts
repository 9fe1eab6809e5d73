import { strict as assert } from 'node:assert';
import { UndoStack } from '../../webview/state/undoStack';

describe('unit: the board undo stack (Ctrl+Z and the Undo in a message)', () => {
  it('when Ctrl+Z is pressed twice, then the newest step is taken back first, then the one before', () => {
    const undos = new UndoStack();
    const taken: string[] = [];
    undos.push({ run: () => taken.push('move') });
    undos.push({ run: () => taken.push('delete'), toastId: 7 });
    assert.equal(undos.undoLast()?.toastId, 7);
    undos.undoLast();
    assert.deepEqual(taken, ['delete', 'move']);
    assert.equal(undos.undoLast(), undefined, 'nothing left to take back');
  });

  it("when a message's Undo takes its step, then Ctrl+Z does not take it back a second time", () => {
    const undos = new UndoStack();
    const taken: string[] = [];
    undos.push({ run: () => taken.push('archive'), toastId: 1 });
    undos.push({ run: () => taken.push('move') });
    undos.undoOffered(1);
    undos.undoOffered(1);
    undos.undoLast();
    assert.equal(undos.undoLast(), undefined);
    assert.deepEqual(taken, ['archive', 'move']);
  });

  it('when more than twenty steps were made, then only the newest twenty can be taken back', () => {
    const undos = new UndoStack();
    const taken: number[] = [];
    for (let step = 1; step <= 25; step++) undos.push({ run: () => taken.push(step) });
    while (undos.undoLast());
    assert.deepEqual(taken, [25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6]);
  });

  it('when another board is shown, then no step of the old one is left to take back', () => {
    const undos = new UndoStack();
    undos.push({ run: () => assert.fail('the old board step ran') });
    undos.clear();
    assert.equal(undos.undoLast(), undefined);
  });

  it('when a step is taken back by Ctrl+Z or by its message, then the listener hears of its card each time', () => {
    const heard: (string | undefined)[] = [];
    const undos = new UndoStack((step) => heard.push(step.cardId));
    undos.push({ run: () => undefined, cardId: 'a' });
    undos.push({ run: () => undefined, toastId: 3, cardId: 'b' });
    undos.push({ run: () => undefined });
    undos.undoOffered(3);
    undos.undoLast();
    undos.undoLast();
    assert.deepEqual(heard, ['b', undefined, 'a']);
  });
});
