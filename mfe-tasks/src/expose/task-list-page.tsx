// Federated entry `./TaskListPage` (rspack.config.mjs): the page only. The shell provides <main>, the
// QueryClient (with the signed-in user already cached), the router, the <Toaster/> and the theme tokens.
import { useId } from 'react';
import { TaskListPage } from '../features/todos/components/task-list-page';

export default function TaskListPageEntry() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <TaskListPage headingId={headingId} />
    </section>
  );
}
