// Federated entry `./TaskListPage` (rspack.config.mjs): the page only. The shell provides <main>, the
// QueryClient (with the signed-in user already cached), the router, the <Toaster/> and the theme tokens.
import { exposePage } from '@tm/remote-kit';
import { TaskListPage } from '../features/todos/components/task-list-page';

export default exposePage(TaskListPage, { displayName: 'TaskListPageEntry' });
