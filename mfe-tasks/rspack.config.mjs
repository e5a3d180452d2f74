import { createConfig } from '@tm/build-config';

export default createConfig({
  dir: import.meta.dirname,
  name: 'mfe_tasks',
  port: 3002,
  title: 'Task Manager — tasks',
  exposes: { './TaskListPage': './src/expose/task-list-page.tsx' },
});
