import { useId, useState, type FormEvent } from 'react';
import { useAddTodo } from '../api/add-todo';
import { SOUNDS } from '../constants';
import { useSound } from '../hooks/use-sound';

/** The new-task form. SPEC §5: no client-side validation, the server decides (an empty title is sent). */
export function AddTaskForm() {
  const inputId = useId();
  const [title, setTitle] = useState('');
  const playAdded = useSound(SOUNDS.added);
  const add = useAddTodo({
    onAdded: () => {
      playAdded();
      setTitle('');
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A second press while the first is on its way would add the task twice.
    if (!add.isPending) add.mutate(title);
  };

  return (
    <form className="tasks-form" onSubmit={submit} aria-busy={add.isPending}>
      <label htmlFor={inputId} className="visually-hidden">
        New task
      </label>
      <input
        id={inputId}
        className="tasks-form__input"
        type="text"
        autoComplete="off"
        placeholder="What would you like to accomplish?"
        value={title}
        onChange={(event) => setTitle(event.target.value)}
      />
      <button type="submit" className="tasks-button">
        Add Task
      </button>
    </form>
  );
}
