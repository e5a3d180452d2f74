import type { Todo } from '@tm/api-client';
import { INBOX_ID, INBOX_NAME, type TaskList } from '@tm/contracts';
import { ModalDialog } from '@tm/web-platform';
import { useId, useRef } from 'react';
import { quoted } from '../components/task-actions';
import { ListDot } from './list-dot';
import { useListActions } from './lists-api';

/**
 * "Move to…" of a task (docs/PRODUCT.md §10.19): the lists, Inbox first, each a button; the task's own list
 * is marked and left as it is. Choosing one moves the task ("Task moved") and closes the dialog, the focus
 * going back to where it was.
 */
export function MoveTaskDialog({ todo, lists, onClose }: { todo: Todo; lists: TaskList[]; onClose: () => void }) {
  const titleId = useId();
  const body = useRef<HTMLDivElement>(null);
  const { moveTask } = useListActions();
  const current = todo.listId ?? INBOX_ID;
  const choices = [{ _id: INBOX_ID, name: INBOX_NAME, colour: undefined }, ...lists.filter((list) => !list.archived || list._id === current)];
  const choose = (listId: string) => {
    if (listId !== current) void moveTask(todo, listId);
    body.current?.closest('dialog')?.close();
  };
  return (
    <ModalDialog className="tasks-dialog lists-dialog" labelledBy={titleId} onClose={onClose} closeButtonClassName="tasks-text-button" closeLabel="Cancel">
      <div ref={body}>
        <h2 id={titleId} className="tasks-dialog__title">
          Move {quoted(todo.title)} to…
        </h2>
        <div className="lists-choices" role="group" aria-labelledby={titleId}>
          {choices.map((list) => (
            <button key={list._id} type="button" className="lists-choices__choice" aria-current={list._id === current ? 'true' : undefined} onClick={() => choose(list._id)}>
              {list.colour && <ListDot colour={list.colour} />}
              {list.name}
              {list._id === current && <span className="lists-choices__here"> (current)</span>}
            </button>
          ))}
        </div>
      </div>
    </ModalDialog>
  );
}
