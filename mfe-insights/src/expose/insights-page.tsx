import { exposePage } from '@tm/remote-kit';
import { InsightsScreen } from '../features/insights/insights-screen';

/** Exposed as `mfe_insights/InsightsPage`: the /insights route of the shell, which provides <main> and the guard. */
export default exposePage(InsightsScreen, { displayName: 'InsightsPage' });
