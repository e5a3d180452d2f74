import { LIMITS, TODO_TITLE_EDIT_EMPTY_MESSAGE, todoTitleProblem, todoTitleValue } from '@tm/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { usePasteLimit } from '../hooks/use-paste-limit';
import { quoted } from './task-actions';

interface TaskTitleEditorProps {
  title: string;
  /** Done editing: `title` is the new, trimmed title, or undefined when nothing is to be saved. */
  onDone: (title: string | undefined, how: 'enter' | 'escape' | 'blur') => void;
}

/**
 * The title of a task as a text field (docs/PRODUCT.md §10.11.1). Enter or leaving the field saves (an
 * unchanged title saves nothing); Escape puts the old title back. A title the server would refuse (empty,
 * invisible, too long) is refused here with the same rules and words (an empty one with the edit's own
 * words), shown next to the field and tied to it, and the field stays.
 */
export function TaskTitleEditor({ title, onDone }: TaskTitleEditorProps) {
  const problemId = useId();
  const pasteId = useId();
  const paste = usePasteLimit(LIMITS.todoTitle.max);
  const [draft, setDraft] = useState(title);
  const [problem, setProblem] = useState<string | null>(null);
  const done = useRef(false);
  const field = useRef<HTMLInputElement>(null);

  // The field replaces the title the person just chose to edit: the focus goes in it, after the text.
  useEffect(() => {
    const input = field.current;
    if (!input) return;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, []);

  const finish = (how: 'enter' | 'blur') => {
    if (done.current) return;
    const refused = todoTitleProblem(draft, TODO_TITLE_EDIT_EMPTY_MESSAGE);
    if (refused) {
      setProblem(refused);
      return;
    }
    done.current = true;
    const next = todoTitleValue(draft);
    onDone(next === title ? undefined : next, how);
  };

  return (
    <div className="tasks-item__editor">
      <input
        className="tasks-item__edit"
        type="text"
        aria-label={`Edit ${quoted(title)}`}
        autoComplete="off"
        dir="auto"
        maxLength={LIMITS.todoTitle.max}
        ref={field}
        value={draft}
        aria-invalid={problem ? true : undefined}
        aria-describedby={[problem && problemId, paste.cut && pasteId].filter(Boolean).join(' ') || undefined}
        onPaste={paste.onPaste}
        onChange={(event) => {
          setDraft(event.target.value);
          setProblem(null);
          paste.onChange();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
            event.preventDefault();
            finish('enter');
          } else if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            done.current = true;
            onDone(undefined, 'escape');
          }
        }}
        onBlur={() => finish('blur')}
      />
      {problem && (
        <p id={problemId} className="tasks-item__problem" role="alert">
          {problem}
        </p>
      )}
      <p id={pasteId} className="tasks-form__notice" aria-live="polite">
        {paste.cut}
      </p>
    </div>
  );
}
