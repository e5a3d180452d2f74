import { createRemoteConfig } from '@tm/build-config/remote';

// Federation name and routes: "remote" in package.json. Dev port: env REMOTE_PORT, else 3003.
export default createRemoteConfig({
  dir: import.meta.dirname,
  port: 3003,
  title: 'Task Manager — insights',
  exposes: { './InsightsPage': './src/expose/insights-page.tsx' },
});
