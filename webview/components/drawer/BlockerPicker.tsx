import { useEffect, useRef, useState } from 'preact/hooks';
import { useController } from '../../context';
import { findBlockerCandidates, type BlockerCandidate } from '../../state/blockerActions';

const SEARCH_DEBOUNCE_MS = 200;

/**
 * Adds a blocker: type part of a title to pick from matching cards on any board, or type an id
 * (whole or partial, resolved by the server) and press Enter. `onAdd` answers the server's words
 * when it refuses (a cycle, an unknown id), shown here, where the person typed.
 */
export function BlockerPicker({
  exclude,
  onAdd,
}: {
  exclude: ReadonlySet<string>;
  onAdd(idish: string): Promise<string | null>;
}) {
  const ctrl = useController();
  const [text, setText] = useState('');
  const [candidates, setCandidates] = useState<BlockerCandidate[]>([]);
  // The text the shown candidates were found for: until a search for newer text answers, Enter
  // must not pick a card matched by what was typed before.
  const [candidatesFor, setCandidatesFor] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const search = useRef(0);

  useEffect(() => {
    const generation = ++search.current;
    if (text.trim() === '') return setCandidates([]);
    const timer = setTimeout(() => {
      void findBlockerCandidates(ctrl, text, exclude).then((found) => {
        if (generation !== search.current) return;
        setCandidates(found);
        setCandidatesFor(text);
      });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, exclude]);

  async function add(idish: string) {
    if (busy || idish.trim() === '') return;
    setBusy(true);
    const refusal = await onAdd(idish.trim());
    setBusy(false);
    setProblem(refusal);
    if (refusal === null) {
      setText('');
      setCandidates([]);
    }
  }

  const showBoards = ctrl.state.boards.length > 1;
  return (
    <div class="blocker-picker">
      <input
        class="input"
        name="blocker-search"
        placeholder="Add a blocker: search titles, or type an id"
        aria-label="Add a blocker"
        autocomplete="off"
        value={text}
        onInput={(e) => {
          setText((e.target as HTMLInputElement).value);
          setProblem(null);
        }}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          void add(candidates.length === 1 && candidatesFor === text ? candidates[0].id : text);
        }}
      />
      {candidates.length > 0 && (
        <ul class="blocker-candidates" role="listbox" aria-label="Matching cards">
          {candidates.map((card) => (
            <li key={card.id} role="option" aria-selected={false}>
              <button
                type="button"
                class="link-btn"
                data-testid="blocker-option"
                data-card-id={card.id}
                title={card.id}
                onClick={() => void add(card.id)}
              >
                {card.title}
                {showBoards && <span class="field-hint"> · {card.boardName}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p class="field-error" role="alert" data-testid="blocker-problem">
          {problem}
        </p>
      )}
    </div>
  );
}
