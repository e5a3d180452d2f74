import type { Todo } from '@tm/api-client';
import { progressLabel, progressText, subtaskProgress } from '@tm/contracts';
import { ChecklistIcon, NoteIcon } from '@tm/web-platform';
import './details-marks.css';

/**
 * A task's details on its row (docs/PRODUCT.md §10.21), beside its priority and labels: how far its subtasks
 * are ("2/5", read "2 of 5 subtasks done", with the checkbox) and a mark when it has a note. Nothing for a task
 * with neither; one line of the height of a label, so a tick changes no row's height.
 */
export function DetailsMarks({ todo, progressId }: { todo: Pick<Todo, 'note' | 'subtasks'>; progressId?: string }) {
  const progress = subtaskProgress(todo.subtasks);
  return (
    <>
      {progress && (
        <span id={progressId} className="tasks-progress" data-complete={progress.done === progress.total ? '' : undefined} title={progressLabel(progress)}>
          <ChecklistIcon size={14} />
          <span aria-hidden="true">{progressText(progress)}</span>
          <span className="visually-hidden">{progressLabel(progress)}</span>
        </span>
      )}
      {todo.note !== undefined && (
        <span className="tasks-note-mark" title="Has a note">
          <NoteIcon size={14} />
          <span className="visually-hidden">Has a note</span>
        </span>
      )}
    </>
  );
}

/** Whether a row shows any of its details' marks. */
export const hasDetailsMarks = (todo: Pick<Todo, 'note' | 'subtasks'>): boolean => todo.note !== undefined || (todo.subtasks?.length ?? 0) > 0;
