import { exposePage } from '@tm/remote-contract';
import { ExternalScreen } from '../features/external/external-screen';

/** Exposed as `external_remote/ExternalPage`: the /external route of the shell, which provides <main> and the guard. */
export default exposePage(ExternalScreen, { displayName: 'ExternalPage' });
