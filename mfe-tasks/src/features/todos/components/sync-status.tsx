import type { Todo, TodoPatch } from '@tm/api-client';
import type { SyncStatus } from '@tm/sync';
import { runningTaskSync, TASK_SYNC_STATUS_KEY } from '@tm/web-platform';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { dayAndTimeText } from '../completed-at';
import { useRestoreTodo } from '../api/restore-todo';
import { useUpdateTodo } from '../api/update-todo';
import { quoted } from './task-actions';

export type Refused = SyncStatus['refused'][number];

const NONE: readonly Refused[] = [];
const selectRefused = (status: SyncStatus | null | undefined): readonly Refused[] => status?.refused ?? NONE;

/** The changes the server refused, by the task they concern (the same map until they change). */
export function useRefusalsByTask(): ReadonlyMap<string, Refused> {
  const refused = useQuery<SyncStatus | null, Error, readonly Refused[]>({ queryKey: TASK_SYNC_STATUS_KEY, queryFn: () => null, enabled: false, staleTime: Infinity, select: selectRefused }).data ?? NONE;
  return useMemo(() => new Map(refused.flatMap((entry) => (entry.taskId === null ? [] : [[entry.taskId, entry] as const]))), [refused]);
}

/** Forgets a refusal the person has read. */
export function dismissRefusal(queryClient: QueryClient, commandId: string): void {
  void runningTaskSync(queryClient)?.then((engine) => engine?.dismiss(commandId));
}

const changes = (count: number) => `${count} ${count === 1 ? 'change' : 'changes'}`;

/** "3 min ago", "just now": how old the oldest waiting change is. */
function age(iso: string, now: number): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** The line that says where syncing stands (docs/PRODUCT.md §10.4). */
export function syncSummary(status: SyncStatus, now: number): string {
  const last = status.lastSyncAt ? `Last synced ${dayAndTimeText(status.lastSyncAt, new Date(now))}.` : 'Not synced yet.';
  if (status.pending > 0) {
    const oldest = status.oldestPendingAt ? `, the oldest from ${age(status.oldestPendingAt, now)}` : '';
    const why = status.offline ? " You're offline: they sync when you're back." : status.syncing ? ' Syncing…' : status.nextRetryAt ? ' The server did not answer; trying again soon.' : '';
    return `${changes(status.pending)} waiting to sync${oldest}.${why} ${last}`;
  }
  if (!status.fresh) return `Showing the tasks kept on this device. ${status.offline ? "You're offline." : 'Updating…'} ${last}`;
  return `All changes synced. ${last}`;
}

/**
 * The summary as the kept screen shows it on the next visit (PRODUCT §10.4 "The kept screen"): the list is
 * the device's, not yet refreshed, and what waited then.
 */
export function keptSummary(status: Pick<SyncStatus, 'pending'>): string {
  return `Showing the tasks kept on this device.${status.pending > 0 ? ` ${changes(status.pending)} waiting to sync.` : ''}`;
}

/** What a refused change was, in words: the field it set, or the action. */
function describeChange(refused: Refused): string {
  const { method, path, body } = refused.command;
  if (path.includes('/add-todo')) {
    const title = (body as { title?: unknown } | undefined)?.title;
    return `Adding ${quoted(typeof title === 'string' ? title : '')}`;
  }
  if (path.includes('/delete-todo')) return 'Deleting a task';
  if (path.includes('/update-todo')) {
    const patch = (body as { updateData?: TodoPatch } | undefined)?.updateData ?? {};
    if (patch.title !== undefined) return `Renaming a task to ${quoted(patch.title)}`;
    if (patch.completed !== undefined) return patch.completed ? 'Completing a task' : 'Marking a task active';
    if (patch.isPinned !== undefined) return patch.isPinned ? 'Pinning a task' : 'Unpinning a task';
  }
  return `A change (${method} ${path})`;
}

/** A change refused because its task is gone: an update whose task was deleted on another device. */
const deletedElsewhere = (refused: Refused): boolean => refused.status === 404 && refused.command.path.includes('/update-todo');

interface SyncStatusLineProps {
  status: SyncStatus;
  /** The tasks on screen: a refusal about one of them shows on its row, the others here. */
  todos: readonly Todo[];
}

/**
 * Where syncing stands, quietly, above the list (docs/PRODUCT.md §10.4): changes waiting and their age, the
 * last sync, whether the list is the device's copy not yet refreshed; and each change the server refused whose
 * task is no longer on screen, with the server's reason, until dismissed. A change to a task deleted on
 * another device offers to restore the task with the change.
 */
export function SyncStatusLine({ status, todos }: SyncStatusLineProps) {
  const queryClient = useQueryClient();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const { mutateAsync: restore } = useRestoreTodo();
  const { mutate: update } = useUpdateTodo();
  const onScreen = new Set(todos.map((todo) => todo._id));
  const elsewhere = status.refused.filter((refused) => refused.taskId === null || !onScreen.has(refused.taskId));
  const dismiss = (refused: Refused) => dismissRefusal(queryClient, refused.id);
  const restoreWithChange = async (refused: Refused) => {
    const taskId = refused.taskId;
    const patch = (refused.command.body as { updateData?: TodoPatch } | undefined)?.updateData;
    if (!taskId || !patch) return;
    dismiss(refused);
    const { todo } = await restore({ todo: { _id: taskId, title: patch.title ?? '', completed: false, isPinned: false, createdAt: refused.createdAt, updatedAt: refused.createdAt, completedAt: null } });
    update({ todoId: todo._id, patch });
  };
  return (
    <div className="tasks-sync" data-pending={status.pending > 0 ? '' : undefined}>
      <p className="tasks-sync__summary" role="status" data-kept-text={keptSummary(status)}>
        {syncSummary(status, now)}
      </p>
      {elsewhere.length > 0 && (
        <ul className="tasks-sync__refused" aria-label="Changes not saved">
          {elsewhere.map((refused) => (
            <li key={refused.id} className="tasks-sync__refusal" role="alert">
              <span>
                <strong>Not saved:</strong> {describeChange(refused)}.{' '}
                {deletedElsewhere(refused) ? 'The task was deleted on another device.' : refused.message}
              </span>
              <span className="tasks-sync__actions">
                {deletedElsewhere(refused) && (
                  <button type="button" className="tasks-button" onClick={() => void restoreWithChange(refused).catch(() => undefined)}>
                    Restore with my change
                  </button>
                )}
                <button type="button" className="tasks-button tasks-button--quiet" onClick={() => dismiss(refused)}>
                  Dismiss
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The refusal about one task on screen, shown on its row (docs/PRODUCT.md §10.4). */
export function RowRefusal({ refused, onDismiss }: { refused: Refused; onDismiss: () => void }) {
  return (
    <p className="tasks-item__refusal" role="alert">
      <strong>Not saved:</strong> {describeChange(refused)}. {refused.message}{' '}
      <button type="button" className="tasks-link-button" onClick={onDismiss}>
        Dismiss
      </button>
    </p>
  );
}
