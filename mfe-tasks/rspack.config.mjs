import { createRemoteConfig } from '@tm/build-config/remote';

// Federation name and routes: "remote" in package.json. Dev port: env REMOTE_PORT, else 3002.
export default createRemoteConfig({
  dir: import.meta.dirname,
  port: 3002,
  title: 'Task Manager — tasks',
  exposes: { './TaskListPage': './src/expose/task-list-page.tsx' },
});
