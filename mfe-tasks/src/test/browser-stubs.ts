// Browser APIs jsdom lacks, stubbed for component tests. The API itself is never mocked: the tests talk to
// the real gateway.

/** Spies on HTMLMediaElement.play (jsdom does not implement it); `playedSources` reads which files played. */
export function stubAudioPlay(implementation: (this: HTMLMediaElement) => Promise<void> = () => Promise.resolve()) {
  return jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(implementation);
}

/** The paths of the sounds a `stubAudioPlay()` spy saw played, in order. */
export function playedSources(play: jest.SpyInstance): string[] {
  return play.mock.contexts.map((element) => new URL((element as HTMLMediaElement).src).pathname);
}

/** A 2D context whose every method does nothing, so react-confetti can draw in jsdom. */
export function stubCanvas() {
  const context = new Proxy({}, { get: (_target, property) => (property === 'canvas' ? undefined : () => undefined) });
  return jest
    .spyOn(HTMLCanvasElement.prototype, 'getContext')
    .mockImplementation(() => context as unknown as CanvasRenderingContext2D);
}

/** window.matchMedia answering `matches: true` for the given queries only. */
export function stubMatchMedia(matching: string[]): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string): MediaQueryList =>
      ({
        matches: matching.includes(query),
        media: query,
        onchange: null,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        // A whole MediaQueryList, deprecated members included, for any library that still calls them.
        // eslint-disable-next-line @typescript-eslint/no-deprecated
        addListener: () => undefined,
        // eslint-disable-next-line @typescript-eslint/no-deprecated
        removeListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList,
  });
}

// The "nothing matches" default of config/jest/setup-web.js (jsdom itself has no matchMedia), put back as it was.
// eslint-disable-next-line @typescript-eslint/unbound-method
const defaultMatchMedia = window.matchMedia;

/** Puts the shared default matchMedia back after a stub. */
export function restoreMatchMedia(): void {
  Object.defineProperty(window, 'matchMedia', { configurable: true, writable: true, value: defaultMatchMedia });
}

/**
 * Takes the browser offline as far as the app can tell: `navigator.onLine` is false and an `offline` event
 * fires, so the HTTP client refuses every call at once (the request never leaves, nothing is mocked on the
 * way to the gateway). Returns the function that brings the browser back online.
 */
export function goOffline(): () => void {
  const onLine = jest.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
  window.dispatchEvent(new Event('offline'));
  return () => {
    onLine.mockRestore();
    window.dispatchEvent(new Event('online'));
  };
}

/**
 * HTMLDialogElement.showModal and close, which jsdom lacks: the `open` attribute as a browser sets it, and
 * the `close` event close() fires. (The browser's focus trap and inert page behind are not simulated.)
 */
export function stubDialog(): () => void {
  const proto = HTMLDialogElement.prototype as Partial<HTMLDialogElement>;
  const saved = { showModal: proto.showModal, close: proto.close };
  proto.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
    const first = this.querySelector<HTMLElement>('button, [href], input, [tabindex]:not([tabindex="-1"])');
    first?.focus();
  };
  proto.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
  return () => {
    proto.showModal = saved.showModal;
    proto.close = saved.close;
  };
}

/** One Web Animation a component asked for, as `stubAnimations` records it. */
export interface PlayedAnimation {
  element: Element;
  keyframes: Keyframe[];
  options: KeyframeAnimationOptions;
  /** Whether it was finished early (a row brought in at once) or ran its course. */
  finishedEarly: boolean;
  animation: Animation;
}

/**
 * Element.animate (Web Animations), which jsdom lacks: records each call and plays it as a timer of its
 * delay plus duration, after which its `finished` promise resolves (so a row's exit takes its real time).
 * `finish()` ends it at once, `cancel()` drops it. Returns what was played, and the way to remove the stub.
 */
export function stubAnimations(): { played: PlayedAnimation[]; restore: () => void } {
  const played: PlayedAnimation[] = [];
  const proto = HTMLElement.prototype as { animate?: unknown };
  proto.animate = function animate(this: Element, keyframes: Keyframe[], options: KeyframeAnimationOptions) {
    let resolve: (value: Animation) => void = () => undefined;
    const finished = new Promise<Animation>((done) => (resolve = done));
    const state = { playState: 'running' as AnimationPlayState };
    const record: PlayedAnimation = { element: this, keyframes, options, finishedEarly: false, animation: undefined as unknown as Animation };
    const end = () => {
      if (state.playState !== 'running') return;
      state.playState = 'finished';
      resolve(animation);
    };
    const timer = setTimeout(end, (options.delay ?? 0) + Number(options.duration ?? 0));
    const animation = {
      get playState() {
        return state.playState;
      },
      finished,
      finish: () => {
        clearTimeout(timer);
        if (state.playState === 'running') record.finishedEarly = true;
        end();
      },
      cancel: () => {
        clearTimeout(timer);
        state.playState = 'idle';
      },
    } as unknown as Animation;
    record.animation = animation;
    played.push(record);
    return animation;
  };
  return {
    played,
    restore: () => {
      delete proto.animate;
    },
  };
}
