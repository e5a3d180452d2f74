import type { Todo } from '@tm/api-client';
import { priorityOf, type ReminderItem, type TaskList } from '@tm/contracts';
import { ListDot } from '../lists/list-dot';
import { LabelChips, PriorityMark } from '../labels/task-marks';
import { DetailsMarks, hasDetailsMarks } from '../details/details-marks';
import { PinIcon } from '@tm/web-platform';
import { MissedReminderMark } from '@tm/web-platform/reminders';
import { memo, useCallback, useId, useRef, useState } from 'react';
import { completedAtFull, completedAtText } from '../completed-at';
import { dueFull, dueText, isOverdue, planText } from '@tm/web-platform';
import { quoted as quotedTitle, TaskActions } from './task-actions';
import type { DeletedElsewhere } from './task-title-editor';
import { RowRefusal, type Refused } from './sync-status';
import { onFirstAct } from '../hooks/first-act';
import type { RowActions } from '../hooks/use-row-actions';
import { useRowMotion } from '../hooks/use-row-motion';
import { useTickTiming } from '../hooks/use-timing-marks';
import { useTitleEditing } from '../hooks/use-title-editing';

import { preloadable } from './preloadable';

// The title editor is off the first load (docs/PERFORMANCE.md "First-load budgets"): fetched at the first key or pointer press on
// the page, so it is in when a title is edited.
const { Component: TaskTitleEditor, preload: preloadEditor } = preloadable(
  () => import('./task-title-editor').then((module) => module.TaskTitleEditor),
  // While the editor arrives the title stays as it was.
  ({ title }) => <span className="tasks-item__title">{title}</span>,
);
if (typeof window !== 'undefined') onFirstAct(() => void preloadEditor());

/** The handlers every row gets from the list: the same functions across renders. */
export interface RowHandlers extends RowActions {
  /** The title editor opened (`true`) or closed: the list keeps an edited task's text if it goes away. */
  onEditing: (todo: Todo, editing: boolean) => void;
  /** Opens the task's change history (docs/PRODUCT.md §10.4). */
  onShowHistory: (todo: Todo) => void;
  /** Opens the task's due-date picker (docs/PRODUCT.md §10.14). */
  onPickDue: (todo: Todo) => void;
  /** Opens "Move to…" for the task (docs/PRODUCT.md §10.19). */
  onMoveTo: (todo: Todo) => void;
  /** Opens the task's Priority choice (docs/PRODUCT.md §10.20). */
  onPickPriority: (todo: Todo) => void;
  /** Opens the task's Labels… (docs/PRODUCT.md §10.20). */
  onEditLabels: (todo: Todo) => void;
  /** Opens the task's details: its note and subtasks (docs/PRODUCT.md §10.21). */
  onOpenDetails: (todo: Todo) => void;
}

interface TaskItemProps extends RowHandlers {
  todo: Todo;
  /** The task's list, shown on the row in All tasks (§10.19); absent in a list's own screen and for the Inbox. */
  list?: TaskList;
  /** The row's index in the window's list (for its measurement) and its place for screen readers (1-based). */
  index: number;
  setSize: number;
  /** Its offset from the top of the list, in px: rows are placed by the window (PRODUCT §10.5.1). */
  top: number;
  /**
   * Entrance delay in seconds: staggered on the first load, 0 for rows new to the list (PRODUCT §2); `null`
   * for a row that was already in the list and comes into view by scrolling: it is simply there (§10.5).
   * Read when the row mounts (useRowMotion).
   */
  enterDelay: number | null;
  compact: boolean;
  /** Measures the row's height for the window. */
  measureRef: (element: HTMLLIElement | null) => void;
  /**
   * Set when the task was deleted elsewhere while it was being edited (or its save found it gone): the row
   * stays, with the editor holding `draft` (or what was typed), and says so (PRODUCT §10.11.1).
   */
  deletedElsewhere?: DeletedElsewhere & { draft?: string };
  /** A change to this task the server refused (docs/PRODUCT.md §10.4): shown on the row with its reason until dismissed. */
  refusal?: Refused;
  onDismissRefusal: (commandId: string) => void;
  /** Its reminder that reached no browser (docs/PRODUCT.md §10.17): marked on the row, read with its checkbox. */
  missedReminder?: ReminderItem;
}

/**
 * One task: checkbox, title (struck through in orange when done), its priority and labels, pinned marker and
 * actions. A tap or click on the title opens the task (docs/PRODUCT.md §10.11.1): today its title editor, the same as the Edit
 * action; only the checkbox ticks. Memoised: a tick re-renders only its own row (PRODUCT §10.5.4); the list
 * passes stable callbacks.
 */
export const TaskItem = memo(function TaskItem({
  todo,
  index,
  setSize,
  top,
  enterDelay,
  compact,
  measureRef,
  onToggleCompleted,
  onTogglePinned,
  onRename,
  onDelete,
  onFocusLost,
  onEditing,
  onShowHistory,
  onPickDue,
  onMoveTo,
  onPickPriority,
  onEditLabels,
  onOpenDetails,
  list,
  deletedElsewhere,
  refusal,
  onDismissRefusal,
  missedReminder,
}: TaskItemProps) {
  const doneAtId = useId();
  const dueId = useId();
  const planId = useId();
  const missedId = useId();
  const priorityId = useId();
  const progressId = useId();
  const priority = priorityOf(todo);
  const labels = todo.labels ?? [];
  const plan = planText(todo);
  const row = useRef<HTMLLIElement>(null);
  const setRow = useCallback(
    (element: HTMLLIElement | null) => {
      row.current = element;
      measureRef(element);
    },
    [measureRef],
  );
  const timeTick = useTickTiming(todo);
  const checkbox = useRef<HTMLInputElement>(null);
  // A row playing its exit animation is gone for keyboard and screen-reader users already.
  const { isPresent, hurry } = useRowMotion(row, todo._id, enterDelay);
  // The cache's optimistic update reaches React a tick after the click; until this todo object is replaced
  // (optimistic value, rollback or refetch) the checkbox shows the user's choice, so it never flickers back.
  const [clicked, setClicked] = useState<{ todo: Todo; completed: boolean } | null>(null);
  const completed = clicked?.todo === todo ? clicked.completed : todo.completed;
  const overdue = !completed && todo.due !== undefined && isOverdue(todo.due);

  const [editing, startEditing, stopEditing] = useTitleEditing(todo, row, checkbox, deletedElsewhere !== undefined, onEditing);

  const classes = ['tasks-item', todo.isPinned && 'tasks-item--pinned', completed && 'tasks-item--completed', editing && 'tasks-item--editing'];
  const label = `Mark ${quotedTitle(todo.title)} as ${completed ? 'not completed' : 'completed'}`;
  return (
    <li
      ref={setRow}
      data-todo-id={todo._id}
      data-index={index}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      className={classes.filter(Boolean).join(' ')}
      style={{ top }}
      inert={!isPresent}
      onFocus={hurry}
      onPointerEnter={hurry}
    >
      {/* The checkbox's touch target: the whole box around it (24 px, 44 px on touch screens, PRODUCT §10.9). */}
      <label className="tasks-item__check">
        <input
          ref={checkbox}
          type="checkbox"
          className="tasks-item__checkbox"
          checked={completed}
          disabled={deletedElsewhere !== undefined}
          aria-label={label}
          aria-describedby={
            [
              priority !== 4 && !editing ? priorityId : '',
              (todo.subtasks?.length ?? 0) > 0 && !editing ? progressId : '',
              completed && todo.completedAt ? doneAtId : '',
              todo.due && !editing ? dueId : '',
              plan && !editing ? planId : '',
              missedReminder && !editing ? missedId : '',
            ]
              .filter(Boolean)
              .join(' ') || undefined
          }
          onChange={(event) => {
            timeTick(event.timeStamp, !completed);
            setClicked({ todo, completed: !completed });
            onToggleCompleted(todo, !completed);
          }}
        />
      </label>
      <div className="tasks-item__text">
        {editing ? (
            <TaskTitleEditor
              title={todo.title}
              initialDraft={deletedElsewhere?.draft}
              deletedElsewhere={deletedElsewhere}
              onDone={(title, how) => {
                stopEditing(how);
                if (title !== undefined) onRename(todo, title);
              }}
            />
        ) : (
          // A tap or click on the title opens the task (PRODUCT §10.11.1, §10.21): on a phone its details (whose
          // title field edits it), with a mouse its title editor. Keyboard and screen-reader users have the same
          // in the row's Details… and Edit actions, and Enter on the checkbox; the checkbox beside it ticks.
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- a pointer shortcut to the Details… and Edit actions, which every key reaches
          <span dir="auto" className={`tasks-item__title${completed ? ' tasks-item__title--completed' : ''}`} onClick={() => (compact ? onOpenDetails(todo) : startEditing('title'))}>
            {todo.title}
          </span>
        )}
        {/* Its priority and labels (PRODUCT §10.20) after the title, on a line that wraps: the priority is read
            with the checkbox, each label is a link that narrows the list to it. */}
        {(priority !== 4 || labels.length > 0 || hasDetailsMarks(todo)) && !editing && (
          <span className="tasks-item__marks">
            <PriorityMark priority={priority} id={priorityId} />
            <DetailsMarks todo={todo} progressId={progressId} />
            <LabelChips labels={labels} />
          </span>
        )}
        {/* When it was done (PRODUCT §10.11.3): under the title, in small type, and read with the checkbox. */}
        {completed && todo.completedAt && !editing && (
          <time id={doneAtId} className="tasks-item__done-at" dateTime={todo.completedAt} title={completedAtFull(todo.completedAt)}>
            {completedAtText(todo.completedAt)}
          </time>
        )}
        {/* When it is due (PRODUCT §10.14), read with the checkbox; overdue in the warning colour and in words. */}
        {todo.due && !editing && (
          <time id={dueId} className={`tasks-item__due${overdue ? ' tasks-item__due--overdue' : ''}`} dateTime={todo.due} title={dueFull(todo.due)}>
            {overdue ? `Overdue: ${dueText(todo.due)}` : `Due ${dueText(todo.due)}`}
          </time>
        )}
        {/* Whether it repeats and how many reminders it has (PRODUCT §10.16, §10.17), in words beside the date. */}
        {plan && !editing && (
          <span id={planId} className="tasks-item__plan">
            {plan}
          </span>
        )}
        {list && !editing && (
          <span className="tasks-item__list">
            <ListDot colour={list.colour} />
            <span className="visually-hidden">List: </span>
            {list.name}
          </span>
        )}
        {missedReminder && !editing && <MissedReminderMark id={missedId} reminder={missedReminder} />}
        {refusal && <RowRefusal refused={refusal} onDismiss={() => onDismissRefusal(refusal.id)} />}
      </div>
      {/* One pinned indicator per row: the pressed pin button on wide screens, this mark in the menu layout. */}
      {todo.isPinned && compact && (
        <span className="tasks-item__pinned">
          <PinIcon filled />
          <span className="visually-hidden">Pinned</span>
        </span>
      )}
      {!deletedElsewhere && (
        <TaskActions
          title={todo.title}
          isPinned={todo.isPinned}
          compact={compact}
          onEdit={() => startEditing('control')}
          onTogglePinned={() => onTogglePinned(todo)}
          onDelete={() => onDelete(todo)}
          onShowHistory={() => onShowHistory(todo)}
          onPickDue={() => onPickDue(todo)}
          onMoveTo={() => onMoveTo(todo)}
          onPickPriority={() => onPickPriority(todo)}
          onEditLabels={() => onEditLabels(todo)}
          onOpenDetails={() => onOpenDetails(todo)}
          onFocusLost={onFocusLost}
        />
      )}
    </li>
  );
});

