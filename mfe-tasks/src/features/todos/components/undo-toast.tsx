import type { Todo } from '@tm/api-client';
import { UNDO_WINDOW_MS } from '@tm/contracts';
import toast, { type Toast } from 'react-hot-toast';

function UndoToast({ t, message, onUndo }: { t: Toast; message: string; onUndo: () => void }) {
  return (
    <span className="tasks-undo">
      <span>{message}</span>
      <button
        type="button"
        className="tasks-undo__button"
        onClick={() => {
          if (!t.visible) return; // already on its way out: one Undo per delete
          toast.dismiss(t.id);
          onUndo();
        }}
      >
        Undo
      </button>
    </span>
  );
}

/**
 * The toast of a delete the server took (docs/PRODUCT.md §10.11.4): the server's message, as the spec shows
 * it ("Task deleted successfully"), with "Undo" for UNDO_WINDOW_MS (5 s), one per task.
 */
export function offerUndo(todo: Todo, message: string, undo: (todo: Todo) => void): void {
  toast((t) => <UndoToast t={t} message={message} onUndo={() => undo(todo)} />, { id: `undo:${todo._id}`, duration: UNDO_WINDOW_MS });
}
