import path from 'node:path';
import { createConfig } from '@tm/build-config';

export default createConfig({
  dir: import.meta.dirname,
  name: 'shell',
  port: 3000,
  title: 'Task Manager',
  runtimePlugins: [path.join(import.meta.dirname, 'src/features/remotes/offline-remote.plugin.ts')],
});
