import { LIMITS, TODO_TITLE_EDIT_EMPTY_MESSAGE, todoTitleProblem, todoTitleValue } from '@tm/contracts';
import { useEffect, useId, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { usePasteLimit } from '../hooks/use-paste-limit';
import { quoted } from './task-actions';

/** The task was deleted (on another device) while its title was being edited: what the editor can still do. */
export interface DeletedElsewhere {
  /** Whether the server may still bring it back (false once it said it can no longer, after its 60 s). */
  restorable: boolean;
  /** A restore or an add is on its way. */
  busy: boolean;
  /** Why the last attempt failed (the server's words), if it did. */
  problem?: string;
  /** Brings the task back (same id and place) with this title. */
  restore: (title: string) => void;
  /** Adds this title as a new task. */
  addAsNew: (title: string) => void;
  /** Lets the typed text go. */
  discard: () => void;
}

interface TaskTitleEditorProps {
  title: string;
  /** The text the field starts with, when it is not the title (what was typed before the task went away). */
  initialDraft?: string;
  /** Set once the task is gone from the server: the editor keeps the text and offers what can be done with it. */
  deletedElsewhere?: DeletedElsewhere;
  /** Done editing: `title` is the new, trimmed title, or undefined when nothing is to be saved. */
  onDone: (title: string | undefined, how: 'enter' | 'escape' | 'blur') => void;
}

/** What the person sees when the task they edit was deleted elsewhere (docs/PRODUCT.md §10.11.1). */
export const DELETED_ELSEWHERE_MESSAGE = 'This task was deleted on another device.';

/** A title is one line: a line break (pasted, or typed on a keyboard that ignores Enter's handler) is a space. */
const oneLine = (text: string) => text.replace(/\r\n|[\r\n]/g, ' ');

/** Sets a text area's height to its text's: reset, then the scroll height plus the border (border-box). */
function fitHeight(element: HTMLTextAreaElement): void {
  const style = element.style;
  style.height = 'auto';
  style.height = `${element.scrollHeight + element.offsetHeight - element.clientHeight}px`;
}

/**
 * The field as tall as its text: the whole title shows however many lines it wraps to (a 4-line title, 4
 * lines). `field-sizing: content` is not in every browser this app supports (Firefox ESR, WebKit), so the
 * height is measured whenever the text or the field's width changes.
 */
function useAutoHeight(field: RefObject<HTMLTextAreaElement | null>, text: string): void {
  useLayoutEffect(() => {
    if (field.current) fitHeight(field.current);
  }, [field, text]);
  useEffect(() => {
    const element = field.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    let width = element.clientWidth;
    const observer = new ResizeObserver(() => {
      if (element.clientWidth === width) return;
      width = element.clientWidth;
      fitHeight(element);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [field]);
}

/**
 * The title of a task as a text field (docs/PRODUCT.md §10.11.1), as tall as the title. Enter (with Shift or
 * without: a title is one line) or leaving the field saves (an unchanged title saves nothing); Escape puts the
 * old title back. A title the server would refuse (empty, invisible, too long) is refused here with the same
 * rules and words (an empty one with the edit's own words), shown next to the field and tied to it, and the
 * field stays.
 *
 * When the task is deleted elsewhere meanwhile, the field keeps what was typed and says so, with "Restore with
 * my change" (while the server can still bring it back), "Add as new task" and "Discard"; Enter does the first
 * of them, Escape discards, and leaving the field does nothing.
 */
export function TaskTitleEditor({ title, initialDraft, deletedElsewhere, onDone }: TaskTitleEditorProps) {
  const problemId = useId();
  const pasteId = useId();
  const goneId = useId();
  const paste = usePasteLimit(LIMITS.todoTitle.max);
  const [draft, setDraft] = useState(initialDraft ?? title);
  const [problem, setProblem] = useState<string | null>(null);
  const done = useRef(false);
  const field = useRef<HTMLTextAreaElement>(null);
  useAutoHeight(field, draft);

  // The field replaces the title the person just chose to edit: the focus goes in it, after the text. In the
  // layout effect, so a tap's own handling still holds it (a phone then opens its keyboard).
  useLayoutEffect(() => {
    const input = field.current;
    if (!input) return;
    input.focus({ preventScroll: true });
    input.setSelectionRange(input.value.length, input.value.length);
  }, []);

  /** The draft as a title, or null (and the reason shown) when the server would refuse it. */
  const valid = (): string | null => {
    const refused = todoTitleProblem(draft, TODO_TITLE_EDIT_EMPTY_MESSAGE);
    if (refused) {
      setProblem(refused);
      field.current?.focus();
      return null;
    }
    return todoTitleValue(draft);
  };

  const finish = (how: 'enter' | 'blur') => {
    if (done.current || deletedElsewhere) return;
    const next = valid();
    if (next === null) return;
    done.current = true;
    onDone(next === title ? undefined : next, how);
  };

  const act = (action: 'restore' | 'add') => {
    if (!deletedElsewhere || deletedElsewhere.busy) return;
    const next = valid();
    if (next === null) return;
    if (action === 'restore') deletedElsewhere.restore(next);
    else deletedElsewhere.addAsNew(next);
  };

  const describedBy = [deletedElsewhere && goneId, problem && problemId, paste.cut && pasteId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="tasks-item__editor">
      <textarea
        className="tasks-item__edit"
        rows={1}
        aria-label={`Edit ${quoted(title)}`}
        autoComplete="off"
        dir="auto"
        enterKeyHint="done"
        maxLength={LIMITS.todoTitle.max}
        ref={field}
        value={draft}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy}
        onPaste={paste.onPaste}
        onChange={(event) => {
          setDraft(oneLine(event.target.value));
          setProblem(null);
          paste.onChange();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
            event.preventDefault();
            if (deletedElsewhere) act(deletedElsewhere.restorable ? 'restore' : 'add');
            else finish('enter');
          } else if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            if (deletedElsewhere) {
              deletedElsewhere.discard();
              return;
            }
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
      {deletedElsewhere && (
        <div className="tasks-item__gone">
          <p id={goneId} className="tasks-item__gone-text" role="alert">
            {DELETED_ELSEWHERE_MESSAGE}
            {deletedElsewhere.problem && ` ${deletedElsewhere.problem}`}
          </p>
          <div className="tasks-item__gone-actions" aria-busy={deletedElsewhere.busy || undefined}>
            {deletedElsewhere.restorable && (
              <button type="button" className="tasks-button tasks-button--small" aria-disabled={deletedElsewhere.busy || undefined} onClick={() => act('restore')}>
                Restore with my change
              </button>
            )}
            <button
              type="button"
              className={`tasks-button tasks-button--small${deletedElsewhere.restorable ? ' tasks-button--quiet' : ''}`}
              aria-disabled={deletedElsewhere.busy || undefined}
              onClick={() => act('add')}
            >
              Add as new task
            </button>
            <button type="button" className="tasks-text-button" onClick={() => deletedElsewhere.discard()}>
              Discard
            </button>
          </div>
        </div>
      )}
      <p id={pasteId} className="tasks-form__notice" aria-live="polite">
        {paste.cut}
      </p>
    </div>
  );
}
