import { SignedInOnly, StandaloneFrame } from '@tm/remote-kit/standalone';
import TaskListPage from '../expose/task-list-page';

/** The remote on its own (`pnpm --filter mfe-tasks dev`): the task list for a signed-in user. */
export function StandaloneApp() {
  return (
    <StandaloneFrame>
      <SignedInOnly purpose="the task list">
        <TaskListPage />
      </SignedInOnly>
    </StandaloneFrame>
  );
}
