import { clientId, describeError, fetchTodoHistory, isOffline, type Todo, type TodoPatch } from '@tm/api-client';
import { fieldValue, subtasksChangeText, subtasksOfFieldValue, TEMP_ID_PREFIX, type HistoryEntry } from '@tm/contracts';
import { reminderText } from '../repeat-choice';
import { ModalDialog } from '@tm/web-platform';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { completedAtFull, dayAndTimeText } from '../completed-at';
import { dueText } from '@tm/web-platform';
import { quoted } from './task-actions';

/** The cache key of one task's history; fetched afresh each time the dialog opens (the data library's default). */
const historyKey = (todoId: string) => ['todo-history', todoId] as const;

/** What the change did, in plain words (docs/PRODUCT.md §10.4). */
function describeChange(entry: HistoryEntry): string {
  switch (entry.field) {
    case 'title':
      return `Title changed from ${quoted(String(entry.before))} to ${quoted(String(entry.after))}`;
    case 'completed':
      return entry.after === true ? 'Marked complete' : 'Marked active';
    case 'isPinned':
      return entry.after === true ? 'Pinned' : 'Unpinned';
    case 'due':
      if (typeof entry.after !== 'string') return 'Due date removed';
      return typeof entry.before === 'string' ? `Due date changed from ${dueText(entry.before)} to ${dueText(entry.after)}` : `Due date set to ${dueText(entry.after)}`;
    case 'repeat':
      return typeof entry.after === 'string' ? `Repeat set (${entry.after})` : 'Repeat removed';
    case 'repeatFrom':
      return entry.after === 'completion' ? 'Repeat counted from completion' : 'Repeat counted on schedule';
    case 'reminders':
      return typeof entry.after === 'string' ? `Reminders set: ${remindersIn(entry.after).map(reminderText).join(', ')}` : 'Reminders removed';
    case 'listId':
      // Lists are not in the task history (PRODUCT §10.19): the move is said, the list by where it went.
      return typeof entry.after === 'string' ? 'Moved to another list' : 'Moved to the Inbox';
    case 'priority':
      // PRODUCT §10.20: a priority 1–3, or none (priority 4, kept as no value).
      return typeof entry.after === 'number' ? `Priority set to ${entry.after}` : 'Priority removed';
    case 'labels':
      return typeof entry.after === 'string' ? `Labels set: ${labelsIn(entry.after).map((name) => `@${name}`).join(' ')}` : 'Labels removed';
    case 'note':
      // PRODUCT §10.21: the note is not repeated here (it may be long); its details show it.
      return typeof entry.after === 'string' ? (typeof entry.before === 'string' ? 'Note changed' : 'Note added') : 'Note removed';
    case 'subtasks':
      // A tick, an item added, renamed or removed, said by its title ("Subtask done: Buy milk").
      return subtasksChangeText(subtasksOfFieldValue(entry.before), subtasksOfFieldValue(entry.after));
    case 'order':
      // PRODUCT §10.24: the task's place in its list (its key means nothing to a person).
      return typeof entry.after === 'string' ? 'Moved in the list' : 'Put back in the order of creation';
  }
}

/** The minutes of reminders as the history keeps them ("0,60", fieldValue of @tm/contracts). */
const remindersIn = (value: string): number[] => value.split(',').map(Number);
/** The labels as the history keeps them ("errand,home", fieldValue of @tm/contracts). */
const labelsIn = (value: string): string[] => value.split(',');

/**
 * The patch that puts the value this change replaced back, with the name of its button; none when the task
 * already has that value (or the value is not one the field takes).
 */
function restoreOf(entry: HistoryEntry, todo: Todo): { patch: TodoPatch; label: string } | undefined {
  const { field, before } = entry;
  if (before === fieldValue(todo, field)) return undefined;
  if (field === 'title' && typeof before === 'string') return { patch: { title: before }, label: `Restore title ${quoted(before)}` };
  if (field === 'completed' && typeof before === 'boolean') return { patch: { completed: before }, label: `Restore: mark ${before ? 'complete' : 'active'}` };
  if (field === 'isPinned' && typeof before === 'boolean') return { patch: { isPinned: before }, label: `Restore: ${before ? 'pin' : 'unpin'}` };
  if (field === 'due' && typeof before === 'string') return { patch: { due: before }, label: `Restore due date ${dueText(before)}` };
  if (field === 'due' && before === null) return { patch: { due: null }, label: 'Restore: no due date' };
  if (field === 'priority' && (before === 1 || before === 2 || before === 3)) return { patch: { priority: before }, label: `Restore priority ${before}` };
  if (field === 'priority' && before === null) return { patch: { priority: null }, label: 'Restore: no priority' };
  if (field === 'labels') return typeof before === 'string' ? { patch: { labels: labelsIn(before) }, label: 'Restore labels' } : { patch: { labels: [] }, label: 'Restore: no labels' };
  if (field === 'note') return typeof before === 'string' ? { patch: { note: before }, label: 'Restore the note' } : { patch: { note: null }, label: 'Restore: no note' };
  if (field === 'subtasks') return typeof before === 'string' ? { patch: { subtasks: subtasksOfFieldValue(before) }, label: 'Restore the subtasks' } : { patch: { subtasks: null }, label: 'Restore: no subtasks' };
  if (field === 'order') return typeof before === 'string' ? { patch: { order: before }, label: 'Restore its place in the list' } : { patch: { order: null }, label: 'Restore: order of creation' };
  // A repeat or reminders come back with the due date they need; without one they cannot (the Restore of the date comes first).
  if (todo.due === undefined) return undefined;
  if (field === 'repeat') return typeof before === 'string' ? { patch: { repeat: before }, label: `Restore repeat (${before})` } : { patch: { repeat: null }, label: 'Restore: no repeat' };
  if (field === 'repeatFrom' && (before === 'due' || before === 'completion' || before === null)) return { patch: { repeatFrom: before ?? 'due' }, label: 'Restore how the repeat counts' };
  if (field === 'reminders') return typeof before === 'string' ? { patch: { reminders: remindersIn(before) }, label: 'Restore reminders' } : { patch: { reminders: null }, label: 'Restore: no reminders' };
  return undefined;
}

/** "Today at 10:42", "Yesterday at 09:12", "On 3 Nov at 17:40". */
function whenText(iso: string): string {
  const text = dayAndTimeText(iso);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

interface TaskHistoryDialogProps {
  /** The task as the list has it now (its values decide which changes can be restored). */
  todo: Todo;
  /** The task has left the list (deleted, here or elsewhere): its history shows, nothing can be restored. */
  deleted: boolean;
  /** Sets fields of the task back, through the list's usual update (called once the dialog has closed). */
  onRestore: (todo: Todo, patch: TodoPatch) => void;
  onClose: () => void;
}

/**
 * A task's change history (docs/PRODUCT.md §10.4): the values its changes of the last 30 days replaced, newest
 * first, each in words with when and where it was made, a change that overwrote one made on another device
 * marked in words, and Restore for each value the task no longer has. A modal <dialog> (ModalDialog): the
 * focus starts on its title, Escape or "Close" closes it, and the focus goes back to the control that opened it.
 */
export function TaskHistoryDialog({ todo, deleted, onRestore, onClose }: TaskHistoryDialogProps) {
  const titleId = useId();
  const title = useRef<HTMLHeadingElement>(null);
  // A task added on this device that the server has not taken yet has no history there (PRODUCT §10.4).
  const onDeviceOnly = todo._id.startsWith(TEMP_ID_PREFIX);
  const history = useQuery({
    queryKey: historyKey(todo._id),
    queryFn: ({ signal }) => fetchTodoHistory(todo._id, { signal }),
    enabled: !onDeviceOnly,
    // The history lives on the server: offline it says so at once; other failures get the usual retries (PRODUCT §9).
    retry: (failures, error) => !isOffline(error) && failures < 3,
  });
  // Restore closes the dialog first; the patch goes once the focus is back on the row (see onClosed).
  const restoring = useRef<TodoPatch | null>(null);

  // This effect runs after ModalDialog's own (which opens it): the focus starts on the title, at the top of
  // a list that may be long, rather than on "Close" after it.
  useEffect(() => {
    title.current?.focus();
  }, []);

  const restore = (patch: TodoPatch) => {
    restoring.current = patch;
    title.current?.closest('dialog')?.close();
  };

  // ModalDialog gives the focus back right after this returns: the restore follows it, so a task that leaves
  // the filter by it moves the focus on to its neighbour exactly as a tick does (PRODUCT §10.9).
  const onClosed = () => {
    const patch = restoring.current;
    restoring.current = null;
    onClose();
    if (patch) queueMicrotask(() => onRestore(todo, patch));
  };

  const mine = clientId();
  return (
    <ModalDialog className="tasks-dialog tasks-history" labelledBy={titleId} onClose={onClosed} closeButtonClassName="tasks-button tasks-dialog__close">
      <h2 ref={title} id={titleId} className="tasks-dialog__title tasks-history__title" tabIndex={-1}>
        History of {quoted(todo.title)}
      </h2>
      {deleted && <p className="tasks-dialog__note">This task has been deleted.</p>}
      {/* Still loading (the data library's retries included, PRODUCT §9), or loading again after "Try again". */}
      {!history.data && history.isFetching && (
        <p role="status" className="tasks-history__status">
          Loading the history…
        </p>
      )}
      {!history.data && !history.isFetching && history.isError && (
        <div role="alert" className="tasks-history__error">
          <p>We could not load the history. {describeError(history.error, 'Please try again.')}</p>
          <button type="button" className="tasks-button tasks-button--small" onClick={() => void history.refetch()}>
            Try again
          </button>
        </div>
      )}
      {onDeviceOnly && <p className="tasks-history__status">No history yet: this task is waiting on this device to be saved.</p>}
      {history.data?.entries.length === 0 && <p className="tasks-history__status">No changes in the last 30 days.</p>}
      {history.data && history.data.entries.length > 0 && (
        <ol className="tasks-history__list">
          {history.data.entries.map((entry) => {
            const restorable = deleted ? undefined : restoreOf(entry, todo);
            return (
              <li key={`${entry.version}:${entry.field}`} className="tasks-history__entry">
                <p className="tasks-history__what">{describeChange(entry)}</p>
                <p className="tasks-history__when">
                  <time dateTime={entry.at} title={completedAtFull(entry.at)}>
                    {whenText(entry.at)}
                  </time>
                  {entry.origin === mine && ' · on this page'}
                </p>
                {entry.conflict && (
                  <p className="tasks-history__conflict">
                    <span className="tasks-history__badge">Changed on two devices</span> The later change won; the earlier value is kept here.
                  </p>
                )}
                {restorable && (
                  <button
                    type="button"
                    className="tasks-button tasks-button--small tasks-button--quiet tasks-history__restore"
                    aria-label={restorable.label}
                    onClick={() => restore(restorable.patch)}
                  >
                    Restore
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </ModalDialog>
  );
}
