import AboutDialog from '../features/about/about-dialog';
import { describeRemotes } from '../features/remotes/describe-remotes';
import type { RemoteCatalog } from '../features/remotes/remote-catalog';

/**
 * The About dialog with what it lists of the remotes: one chunk, loaded when the dialog first opens, so
 * neither costs the first load anything.
 */
export default function About({ catalog, onClose }: { catalog?: RemoteCatalog; onClose: () => void }) {
  return <AboutDialog remotes={catalog ? describeRemotes(catalog) : []} onClose={onClose} />;
}
