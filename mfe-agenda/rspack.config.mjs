import { createRemoteConfig } from '@tm/build-config/remote';

// Federation name and routes: "remote" in package.json. Dev port: env REMOTE_PORT, else 3004.
export default createRemoteConfig({
  dir: import.meta.dirname,
  port: 3004,
  title: 'Task Manager — agenda',
  exposes: { './AgendaPage': './src/expose/agenda-page.tsx' },
});
