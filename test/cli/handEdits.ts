import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

interface AddedCard {
  id: string;
  filePath: string;
}

interface ListedCard {
  id: string;
  title: string;
  status: string;
}

/**
 * Between two commands, change three cards' files by hand the four ways people do: edit one in
 * place (same length, so only the content tells), move one to another column's folder, delete one,
 * and add a new file. `checkListed` then asserts that a list shows exactly what the files say.
 */
export async function changeCardFilesByHand(
  dir: string,
  cards: { edited: AddedCard; moved: AddedCard; deleted: AddedCard },
): Promise<(listed: ListedCard[]) => void> {
  const { edited, moved, deleted } = cards;
  const file = (card: AddedCard) => path.join(dir, card.filePath);
  await fs.writeFile(
    file(edited),
    (await fs.readFile(file(edited), 'utf8')).replace('# Edited by hand', '# Edited by HAND'),
  );
  const review = path.join(dir, '.kanban', 'boards', 'default', 'review');
  await fs.mkdir(review, { recursive: true });
  await fs.rename(file(moved), path.join(review, path.basename(file(moved))));
  await fs.rm(file(deleted));
  const text = (await fs.readFile(file(edited), 'utf8'))
    .replace(/^id: .*$/m, 'id: added-by-hand')
    .replace('# Edited by HAND', '# Added by hand');
  await fs.writeFile(path.join(path.dirname(file(edited)), 'added-by-hand.md'), text);
  return (listed) => {
    const byId = new Map(listed.map((c) => [c.id, c]));
    assert.equal(byId.get(edited.id)?.title, 'Edited by HAND');
    assert.equal(byId.get(moved.id)?.status, 'review');
    assert.equal(byId.has(deleted.id), false);
    assert.equal(byId.get('added-by-hand')?.title, 'Added by hand');
    assert.equal(listed.length, 3);
  };
}
