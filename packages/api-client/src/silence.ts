import { AxiosError, type AxiosProgressEvent, type InternalAxiosRequestConfig } from 'axios';

/**
 * The client's timeout is about silence, not size (docs/PRODUCT.md §9's 10 s): a call fails when
 * nothing has moved either way for that long (no answer begun, no bytes of it arriving), never because a
 * large answer is still coming in on a slow link. A 1.8 MB list at 50 KB/s takes longer than 10 s and is
 * not silent for a moment of it.
 */
export function silenceTimeoutError(config: InternalAxiosRequestConfig, silenceMs: number): AxiosError {
  return new AxiosError(`nothing received for ${silenceMs} ms`, AxiosError.ECONNABORTED, config);
}

const SILENCE = Symbol('silence');

interface Silence {
  timedOut: boolean;
  ms: number;
  stop: () => void;
}

type WatchedConfig = InternalAxiosRequestConfig & { [SILENCE]?: Silence };

/**
 * Request interceptor: gives the call its own abort signal (still following the caller's), aborted after
 * `silenceMs` without progress (or the call's own `timeout`, when it sets one); every upload or download
 * progress event starts the count again.
 */
export function watchSilence(silenceMs: number): (config: InternalAxiosRequestConfig) => InternalAxiosRequestConfig {
  return (config) => {
    const watched = config as WatchedConfig;
    const ms = config.timeout && config.timeout > 0 ? config.timeout : silenceMs;
    const controller = new AbortController();
    const caller = config.signal as AbortSignal | undefined;
    if (caller?.aborted) controller.abort();
    else caller?.addEventListener?.('abort', () => controller.abort(), { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silence: Silence = {
      timedOut: false,
      ms,
      stop: () => clearTimeout(timer),
    };
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        silence.timedOut = true;
        controller.abort();
      }, ms);
    };
    const onDownload = config.onDownloadProgress;
    const onUpload = config.onUploadProgress;
    config.onDownloadProgress = (event: AxiosProgressEvent) => {
      restart();
      onDownload?.(event);
    };
    config.onUploadProgress = (event: AxiosProgressEvent) => {
      restart();
      onUpload?.(event);
    };
    config.signal = controller.signal;
    // axios' own timeout is for the whole call: off.
    config.timeout = 0;
    watched[SILENCE] = silence;
    restart();
    return config;
  };
}

/** Response interceptors: stop the count; a call aborted by it fails as a timeout (isTimeout, TIMEOUT_MESSAGE). */
export function settleSilence() {
  const stop = (config: InternalAxiosRequestConfig | undefined) => (config as WatchedConfig | undefined)?.[SILENCE];
  return {
    fulfilled: <R extends { config: InternalAxiosRequestConfig }>(response: R): R => {
      stop(response.config)?.stop();
      return response;
    },
    rejected: (error: unknown): Promise<never> => {
      const config = error instanceof AxiosError ? error.config : undefined;
      const silence = stop(config);
      silence?.stop();
      if (silence?.timedOut && config) return Promise.reject(silenceTimeoutError(config, silence.ms));
      // axios' own error, passed on as it came.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    },
  };
}
