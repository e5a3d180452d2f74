// Network emulation through the DevTools protocol for the page AND its service worker: the
// conditions set on a page's session do not reach the fetches a service worker makes for it, so a repeat
// visit would look faster than it is. Service-worker targets are found through the browser's session,
// attached to (non-flattened, so Playwright's own sessions are untouched) and given the same conditions.

/**
 * Applies `conditions` (latency ms, download/upload bytes per second) to `page` and to every service worker
 * of the browser, now and as they start, until `off()`.
 * @param {import('playwright-core').BrowserContext} context
 * @param {import('playwright-core').Page} page
 * @param {{ latency: number, downloadThroughput: number, uploadThroughput: number }} conditions
 */
export async function emulateEverywhere(context, page, conditions) {
  const pageSession = await context.newCDPSession(page);
  await pageSession.send('Network.enable');
  await pageSession.send('Network.emulateNetworkConditions', { offline: false, ...conditions });
  const browser = context.browser();
  const browserSession = browser ? await browser.newBrowserCDPSession() : undefined;
  const attached = new Map();
  let nextId = 1;
  const sendTo = (sessionId, method, params) =>
    browserSession?.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: nextId++, method, params }) }).catch(() => undefined);
  const attachWorkers = async () => {
    if (!browserSession) return;
    const { targetInfos } = await browserSession.send('Target.getTargets').catch(() => ({ targetInfos: [] }));
    for (const target of targetInfos) {
      if (target.type !== 'service_worker' || attached.has(target.targetId)) continue;
      try {
        const { sessionId } = await browserSession.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
        attached.set(target.targetId, sessionId);
        await sendTo(sessionId, 'Network.enable', {});
        await sendTo(sessionId, 'Network.emulateNetworkConditions', { offline: false, ...conditions });
      } catch {
        // A worker that stopped between the listing and the attach has nothing to throttle.
      }
    }
  };
  await attachWorkers();
  const timer = setInterval(() => void attachWorkers(), 50);
  return {
    get workers() {
      return attached.size;
    },
    off: async () => {
      clearInterval(timer);
      await pageSession.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }).catch(() => undefined);
      for (const sessionId of attached.values()) {
        await sendTo(sessionId, 'Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
        await browserSession?.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
      }
      await pageSession.detach().catch(() => undefined);
      await browserSession?.detach().catch(() => undefined);
    },
  };
}
