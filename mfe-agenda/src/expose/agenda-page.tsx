import { exposePage } from '@tm/remote-kit';
import { AgendaScreen } from '../features/agenda/agenda-screen';

/** Exposed as `mfe_agenda/AgendaPage`: the /today route of the shell, which provides <main> and the guard. */
export default exposePage(AgendaScreen, { displayName: 'AgendaPage' });
