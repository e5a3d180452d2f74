import { LABELS_TOO_MANY_MESSAGE, LIMITS, priorityName, taskMarks, todoTitleProblem, type Priority } from '@tm/contracts';
import { focusInOpenLayer, isAfterSignIn, keepDraft, readDraft } from '@tm/web-platform';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery } from '@tm/api-client';
import { useEffect, useId, useMemo, useRef, useState, type MouseEvent, type RefObject, type SubmitEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { useAddTodo } from '../api/add-todo';
import { SOUNDS } from '../constants';
import { dueText, personNow } from '@tm/web-platform';
import { usePasteLimit } from '../hooks/use-paste-limit';
import { useSound } from '../hooks/use-sound';
import { quoted } from './task-actions';
import type * as QuickAddModule from '../quick-add';
import type { TaskList } from '@tm/contracts';
import { listTagIn } from '../lists/list-tag';
import { taskTagsIn, type TaskTags } from '../labels/label-tags';

/** The length counter shows from here on (docs/PRODUCT.md §10.7). */
const COUNTER_FROM = Math.floor(LIMITS.todoTitle.max * 0.8);

/** What remains in the input once `submitted` was added: only the submitted text goes. */
function afterAdded(current: string, submitted: string): string {
  if (current === submitted) return '';
  return current.startsWith(submitted) ? current.slice(submitted.length).trimStart() : current;
}

/** The Priority and Label filters set while a task is added (PRODUCT §10.20). */
export interface FilterMarks {
  priority?: Priority;
  label?: string;
}

/**
 * What an add carries of "p1" and "@name" and of the filters set (PRODUCT §10.20): the words' priority, else
 * the filter's; the words' labels and the filter's. A task added under a filter so matches it and stays in
 * view, as a task added in a list goes into it. Priority 4 is none, and goes without saying.
 */
function tagFields(tags: TaskTags | null, marks: FilterMarks): { priority?: 1 | 2 | 3; labels?: string[] } {
  return taskMarks({ priority: tags?.priority ?? marks.priority, labels: [...(tags?.labels ?? []), ...(marks.label === undefined ? [] : [marks.label])] });
}

/** "Priority 1 · @errand @home": what the preview says of them. */
function tagsText(tags: TaskTags): string {
  return [tags.priority === undefined ? '' : priorityName(tags.priority), tags.labels.map((name) => `@${name}`).join(' ')].filter(Boolean).join(' · ');
}

/** A second press within this long of an add showing belongs to the same double click or Enter burst. */
const REPEAT_WINDOW_MS = 500;

/** The draft of the new-task input, kept across a session's end for the same person (web-platform's drafts). */
const DRAFT = 'new-task';

type QuickAdd = typeof QuickAddModule;

/** The parser once it has arrived, for every form of the page (a form mounted later starts with it). */
let quickAddModule: QuickAdd | null = null;

/** Fetches the quick-add parser (its own chunk); resolves with it. */
export function preloadQuickAdd(): Promise<QuickAdd> {
  return import('../quick-add').then((loaded) => (quickAddModule = loaded));
}

/**
 * Quick add in plain words (docs/PRODUCT.md §10.14): the parser loads once the person starts typing a task
 * (not with the page), then reads the date the words say as they type. Null until it has arrived: a task
 * added before then is added as typed, since its date was never shown.
 */
function useQuickAdd(title: string) {
  const [module, setModule] = useState<QuickAdd | null>(() => quickAddModule);
  const loading = useRef(false);
  useEffect(() => {
    if (title === '' || module || loading.current) return;
    loading.current = true;
    preloadQuickAdd().then(setModule, () => {
      loading.current = false; // a failed load (offline, a new release) is tried again at the next key
    });
  }, [title, module]);
  const understood = useMemo(() => (module && title.trim() !== '' ? module.understand(title, personNow()) : null), [module, title]);
  return { understood, read: (text: string) => module?.understand(text, personNow()) ?? null };
}

function useUserId(): string | undefined {
  return useQuery({ ...currentUserQuery(), select: (user) => user?._id }).data;
}

/**
 * The new-task form. One submission at a time: a double click, a repeated Enter or a click while an add is
 * on its way adds one task; the next task can be added as soon as the last one shows. A title the server would refuse (empty, only invisible characters, too long)
 * is refused here with the same words and no request (PRODUCT §10.2, §10.7); what the server refuses anyway
 * shows next to the input too, until the text changes.
 */
interface AddTaskFormProps {
  inputRef: RefObject<HTMLInputElement | null>;
  /** The list new tasks go into (docs/PRODUCT.md §10.19); undefined: the Inbox. */
  listId?: string;
  /** The person's lists: "#Name" in the words puts the task into the list of that name. */
  lists?: readonly TaskList[];
  /** The Priority and Label filters set: a new task takes them (PRODUCT §10.20). */
  marks?: FilterMarks;
}

const NO_MARKS: FilterMarks = {};

const NO_LISTS: readonly TaskList[] = [];

export function AddTaskForm({ inputRef, listId, lists = NO_LISTS, marks = NO_MARKS }: AddTaskFormProps) {
  const inputId = useId();
  const problemId = useId();
  const counterId = useId();
  const pasteId = useId();
  const previewId = useId();
  const userId = useUserId();
  const [title, setTitleState] = useState(() => readDraft(userId, DRAFT));
  // The latest text, readable at once: after an add, a repeated Enter may arrive before React has rendered
  // the cleared input, and must see the cleared text, not the submitted one (one add per Enter burst).
  const titleNow = useRef(title);
  const setTitle = (next: string) => {
    titleNow.current = next;
    setTitleState(next);
    keepDraft(userId, DRAFT, next);
  };
  const paste = usePasteLimit(LIMITS.todoTitle.max);
  const [problem, setProblem] = useState<string | null>(null);
  // The add being made, until its task shows: an Enter or a click meanwhile is the same add again. Once the
  // task shows (kept on the device, before the server answers), the next task can be added at once; an
  // empty submission just after is the rest of the same double click or Enter burst, and is let go quietly.
  const submitting = useRef<object | null>(null);
  const submitted = useRef('');
  const [adding, setAdding] = useState(false);
  // "#Name" names the list (§10.19); "p1" and "@name" the priority and labels (§10.20); the date words are read in the rest.
  const tag = useMemo(() => listTagIn(title, lists), [title, lists]);
  const tags = useMemo(() => taskTagsIn(tag ? tag.rest : title), [tag, title]);
  const quickAdd = useQuickAdd(tags ? tags.rest : tag ? tag.rest : title);
  // "Keep words as typed": the date words stay in the title and no date is set (§10.14), until the next add.
  const [asTyped, setAsTyped] = useState(false);
  const shownAt = useRef(-Infinity);
  const playAdded = useSound(SOUNDS.added);
  const add = useAddTodo({
    onAdded: () => {
      submitting.current = null;
      shownAt.current = performance.now();
      setAdding(false);
      setAsTyped(false);
      playAdded();
      setTitle(afterAdded(titleNow.current, submitted.current));
    },
    onRefused: (message) => {
      setProblem(message);
      // What was refused comes back to be corrected, unless something new is being typed.
      if (titleNow.current === '') setTitle(submitted.current);
    },
  });

  // After a sign-in or sign-up the person came here to write a task (PRODUCT §10.9), unless they opened a
  // menu while the screen arrived.
  const state: unknown = useLocation().state;
  useEffect(() => {
    if (isAfterSignIn(state) && !focusInOpenLayer()) inputRef.current?.focus();
  }, [state, inputRef]);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The next task is typed in the same input: the focus stays there, whether Enter or the button sent it,
    // so a phone's keyboard stays open (PRODUCT §10.9). Set in the submit itself, while the tap still counts.
    inputRef.current?.focus();
    if (submitting.current) return;
    const text = titleNow.current;
    if (text === '' && performance.now() - shownAt.current < REPEAT_WINDOW_MS) return;
    const tagged = listTagIn(text, lists);
    const marked = taskTagsIn(tagged ? tagged.rest : text);
    // The server's rules first, in its words (PRODUCT §10.7, §10.20): no request for what it would refuse.
    const fields = tagFields(marked, marks);
    const refused = todoTitleProblem(text) ?? ((fields.labels?.length ?? 0) > LIMITS.labelsPerTask ? LABELS_TOO_MANY_MESSAGE : null);
    if (refused) {
      setProblem(refused);
      inputRef.current?.focus();
      return;
    }
    const attempt = {};
    submitting.current = attempt;
    submitted.current = text;
    setAdding(true);
    const words = marked ? marked.rest : tagged ? tagged.rest : text;
    const understood = asTyped ? null : quickAdd.read(words);
    const into = tagged ? tagged.list._id : listId;
    const extra = { ...(into === undefined ? {} : { listId: into }), ...fields };
    add
      .mutateAsync(understood ? { title: understood.title, due: understood.due, ...(understood.repeat === undefined ? {} : { repeat: understood.repeat }), ...extra } : { title: words, ...extra })
      .catch(() => undefined)
      .finally(() => {
        if (submitting.current !== attempt) return;
        submitting.current = null;
        setAdding(false);
      });
  };

  const pending = adding;
  const { understood } = quickAdd;
  const describedBy = [problem && problemId, paste.cut && pasteId, (understood || tag || tags) && previewId, title.length >= COUNTER_FROM && counterId].filter(Boolean).join(' ') || undefined;
  // A press does not take the focus from the input (the keyboard would close and open again).
  const keepInputFocus = (event: MouseEvent<HTMLButtonElement>) => {
    if (document.activeElement === inputRef.current) event.preventDefault();
  };
  return (
    <form className="tasks-form" onSubmit={submit} aria-busy={pending} noValidate>
      <label htmlFor={inputId} className="visually-hidden">
        New task
      </label>
      <div className="tasks-form__field">
        <input
          ref={inputRef}
          id={inputId}
          className="tasks-form__input"
          type="text"
          autoComplete="off"
          dir="auto"
          maxLength={LIMITS.todoTitle.max}
          placeholder="What would you like to accomplish?"
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
          value={title}
          onPaste={paste.onPaste}
          onChange={(event) => {
            setTitle(event.target.value);
            setProblem(null);
            if (event.target.value === '') setAsTyped(false);
            paste.onChange();
          }}
        />
        {title.length >= COUNTER_FROM && (
          <span id={counterId} className="tasks-form__counter">
            {title.length}/{LIMITS.todoTitle.max}
          </span>
        )}
      </div>
      <button
        type="submit"
        className="tasks-button tasks-form__submit"
        aria-disabled={pending || undefined}
        onMouseDown={keepInputFocus}
      >
        {pending && <span className="tasks-spinner" aria-hidden="true" />}
        {pending ? 'Adding…' : 'Add Task'}
      </button>
      {problem && (
        <p id={problemId} className="tasks-form__problem" role="alert">
          {problem}
        </p>
      )}
      {/* What the words say, before adding (§10.14); always in the page, so a change is read out. */}
      <div className="tasks-form__quick">
        <p id={previewId} className="tasks-form__preview" aria-live="polite">
          {understood && !asTyped && (
            <>
              <span className="tasks-form__preview-due">Due {dueText(understood.due)}</span>
              {understood.repeatWords !== undefined && <span className="tasks-form__preview-due"> · Repeats {understood.repeatWords.toLowerCase()}</span>}
            </>
          )}
          {understood && asTyped && `Adding as typed, with no due date${understood.repeat === undefined ? '' : ' or repeat'}`}
          {tag && (
            <span className="tasks-form__preview-list">
              {understood ? ' · ' : ''}In list {quoted(tag.list.name)}
            </span>
          )}
          {tags && (
            <span className="tasks-form__preview-tags">
              {understood || tag ? ' · ' : ''}
              {tagsText(tags)}
            </span>
          )}
          {(tag || tags || (understood && !asTyped)) && ` · ${quoted(understood && !asTyped ? understood.title : tags ? tags.rest : (tag?.rest ?? title))}`}
        </p>
        {understood && (
          <button type="button" className="tasks-form__as-typed" aria-pressed={asTyped} onMouseDown={keepInputFocus} onClick={() => setAsTyped((kept) => !kept)}>
            Keep words as typed
          </button>
        )}
      </div>
      {/* Always in the page, so the words are read out when a paste is cut. */}
      <p id={pasteId} className="tasks-form__notice" aria-live="polite">
        {paste.cut}
      </p>
    </form>
  );
}
