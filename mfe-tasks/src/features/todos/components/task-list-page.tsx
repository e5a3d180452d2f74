import { domAnimation, LazyMotion, MotionConfig, useReducedMotion } from 'framer-motion';
import { useRef } from 'react';
import { useFullName } from '../api/get-current-user';
import { useTodos } from '../api/get-todos';
import { CONFETTI, ILLUSTRATION_SRC, SUCCESS_CUE_MS } from '../constants';
import { useCelebration } from '../hooks/use-celebration';
import { AddTaskForm } from './add-task-form';
import { Celebration } from './celebration';
import { TaskList } from './task-list';
import './task-list-page.css';

export interface TaskListPageProps {
  /** id for the page's h1, so the section around it can be labelled by it. */
  headingId?: string;
}

function encouragement(todos: { completed: boolean }[]): string {
  if (todos.length === 0) return 'All tasks conquered!';
  const left = todos.filter((todo) => !todo.completed).length;
  if (left === 0) return 'Every task is done. Well played!';
  return `You have ${left} ${left === 1 ? 'task' : 'tasks'} left. Keep going!`;
}

/** The task list screen (docs/PRODUCT.md §2): greeting, encouragement, illustration, new-task form and the list. */
export function TaskListPage({ headingId }: TaskListPageProps) {
  const fullName = useFullName();
  const todos = useTodos();
  const reducedMotion = useReducedMotion() ?? false;
  const { count, celebrate } = useCelebration(reducedMotion ? SUCCESS_CUE_MS : CONFETTI.visibleMs);
  const input = useRef<HTMLInputElement>(null);

  return (
    // LazyMotion + `m` components load only the DOM animation features the list uses (smaller bundle);
    // `strict` makes a stray full `motion` component an error instead of silently pulling them all in.
    <LazyMotion features={domAnimation} strict>
      <MotionConfig reducedMotion="user">
        <div className="tasks-page">
          <header className="tasks-page__header">
            <div className="tasks-page__intro">
              <h1 id={headingId} className="tasks-page__title">
                Task Manager
              </h1>
              <p className="tasks-page__greeting">{fullName ? `Hello, ${fullName}!` : 'Hello!'}</p>
              {todos.data && <p className="tasks-page__message">{encouragement(todos.data)}</p>}
            </div>
            <img className="tasks-page__illustration" src={ILLUSTRATION_SRC} alt="" width={240} height={180} />
          </header>
          <AddTaskForm inputRef={input} />
          {todos.isPending && (
            <p role="status" className="tasks-page__status">
              Loading your tasks…
            </p>
          )}
          {/* A failed refetch keeps the list on screen (offline, a hiccup): only a list never loaded is an error. */}
          {todos.isError && !todos.data && (
            <div role="alert" className="tasks-page__error">
              <p>We could not load your tasks.</p>
              <button type="button" className="tasks-button" onClick={() => void todos.refetch()}>
                Try again
              </button>
            </div>
          )}
          {todos.data && <TaskList todos={todos.data} onCompleted={celebrate} inputRef={input} />}
          <Celebration count={count} reducedMotion={reducedMotion} />
        </div>
      </MotionConfig>
    </LazyMotion>
  );
}
