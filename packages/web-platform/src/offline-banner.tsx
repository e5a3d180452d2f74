import { OfflineIcon } from './icons.js';
import { useOnline } from './use-online.js';
import './platform.css';

export const OFFLINE_BANNER_TEXT = "You're offline. Your changes are kept on this device and sync when you're back online.";

/**
 * A calm notice while the browser is offline (docs/PRODUCT.md §10.4). The live region is always in the
 * page, so screen readers announce the text when it appears.
 */
export function OfflineBanner() {
  const online = useOnline();
  return (
    <div className="platform-offline" role="status">
      {!online && (
        <p className="platform-offline__text">
          <OfflineIcon />
          <span>{OFFLINE_BANNER_TEXT}</span>
        </p>
      )}
    </div>
  );
}
