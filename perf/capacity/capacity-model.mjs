// The capacity model behind docs/CAPACITY.md (must have 6): from the per-process figures
// `pnpm bench` measured (docs/benchmarks.json) and the stated assumptions below to processes, Redis memory,
// MongoDB size and CDN bytes for 10 000 to 10 million users, and which limit each 10× step crosses first.
// Pure arithmetic: no I/O here (perf/capacity/capacity.mjs reads and writes the files).

const MiB = 2 ** 20;
const GiB = 2 ** 30;
const DAY_S = 86_400;

/** Every assumption of the model, with its number; CAPACITY.md prints them all. */
export const ASSUMPTIONS = {
  dailyActiveShare: { value: 0.1, text: 'share of users active on a given day' },
  concurrentShare: { value: 0.01, text: 'share of users with a page open at the peak (one open event stream each)' },
  taskCallsPerActiveDay: { value: 30, text: 'task calls (fetch, add, update, delete…) per active user per day' },
  readShare: { value: 0.5, text: 'share of those calls that are fetches (the rest are writes)' },
  peakFactor: { value: 5, text: 'peak rate over the daily average (busy hours and bursts)' },
  hashesPerActiveDay: { value: 0.2, text: 'password hashes per active user per day (sign-ins and sign-ups; sessions last 7 days idle, 30 at most)' },
  cpuTarget: { value: 0.6, text: 'share of a core a process may use at the peak (room for a failed instance and GC)' },
  minProcesses: { value: 2, text: 'processes of each kind at least, so one can restart while the other serves' },
  weeklyActiveShare: { value: 0.25, text: 'share of users signed in within the session idle timeout (7 days)' },
  devicesPerUser: { value: 1.5, text: 'sessions per such user (devices, browsers)' },
  sessionBytes: { value: 600, text: 'bytes of Redis per session (the session, its key and TTL, its entry in the user\'s set of open sessions)' },
  rateLimitKeyBytes: { value: 150, text: 'bytes of Redis per rate-limit counter (key, count, TTL)' },
  changeMessageBytes: { value: 300, text: 'bytes of one change notice on Redis pub/sub' },
  todosPerUser: { value: 30, text: 'live tasks per user, averaged over all users' },
  todoOverheadBytes: { value: 80, text: 'bytes a stored task takes beyond its JSON (userId, deletedAt, BSON framing)' },
  todoIndexBytes: { value: 100, text: 'bytes of index per task (_id, and userId + isPinned + createdAt + _id)' },
  userBytes: { value: 400, text: 'bytes per account document with its email index (name, email, password hash)' },
  eventBytes: { value: 400, text: 'bytes per change-feed document (kept TODO_EVENTS_RETENTION_MS, 10 min)' },
  eventRetentionS: { value: 600, text: 'seconds change events are kept (TODO_EVENTS_RETENTION_MS)' },
  coldLoadsPerActiveDay: { value: 0.3, text: 'first loads with an empty cache per active user per day (hashed files are cached a year; each deploy empties the cache once)' },
  redisBudgetBytes: { value: 8 * GiB, text: 'memory one Redis instance is given' },
  mongoWorkingSetBytes: { value: 64 * GiB, text: 'data + indexes one MongoDB replica set keeps in RAM (the node\'s cache)' },
  mongoWritesPerS: { value: 10_000, text: 'writes per second one MongoDB primary takes comfortably' },
  machineCores: { value: 2, text: 'cores of the one machine of the embedded (SQLite) mode' },
};

/** Used when docs/benchmarks.json lacks a figure; each use is reported as such in the tables. */
export const FALLBACKS = {
  'cpu.gateway.msPerRequest': 1.7,
  'cpu.gateway.add.msPerRequest': 1.7,
  'cpu.todos.msPerRequest': 0.6,
  'cpu.todos.add.msPerRequest': 0.5,
  // Used only when the bench has no sign-in figure: a conservative ~450 ms of a core per sign-in (the cost
  // of the slowest password hash an account may still have, scrypt at N=2^17, until its next sign-in).
  'signin.perSecPerCore': 2.2,
  'payload.100.bytes': 17_300,
  // The task list's first load before 314 KiB of gzipped JavaScript.
  'web.firstLoadBytes': 314 * 1024,
};

/** What to change when a limit is crossed. */
const REMEDIES = {
  gatewayStreams: 'more gateway processes (the per-process cap EVENTS_MAX_STREAMS, sized by `node perf/capacity/streams.mjs`, is what runs out); the balancer must keep idle SSE connections open',
  gatewayCpu: 'more gateway processes: they are stateless (sessions in Redis), any one serves any request (their CPU includes the idle work of the open streams)',
  todosStreams: 'more svc-todos replicas (each relayed stream is one upstream stream; change notices already reach every replica through Redis pub/sub)',
  todosCpu: 'more svc-todos replicas behind the gateway',
  hashing: 'more svc-users cores: the hash cost is the defence and stays; the per-IP and per-account login limits keep guessing bounded',
  machine: 'leave the embedded mode: MongoDB (MONGO_URL, a replica set) and Redis (REDIS_URL) so processes run on several machines, each kind twice at least',
  redis: 'a larger Redis or Redis Cluster (session keys spread evenly by their random id); a shorter idle timeout also cuts it',
  mongoSize: 'shard the todos collection on userId (hashed; every query filters by userId, so each goes to one shard)',
  mongoWrites: 'shard on userId so writes spread over several primaries',
};

/**
 * @typedef {object} Inputs
 * @property {Record<string, number>} metrics      docs/benchmarks.json's metrics
 * @property {{ gatewayMaxStreams: number, todosMaxStreams: number, sessionCheckMs: number }} limits streams one process holds
 *   (the measured cap of perf/capacity/streams.json, never above the configuration's default) and the session check period
 * @property {StreamCosts} [streams] what one idle open stream costs each process (perf/capacity/streams.json); none: free
 */

/**
 * @typedef {object} StreamCosts
 * @property {{ cpuMsPerS: number, rssKiB: number }} gateway CPU (ms per second) and resident memory of one idle stream
 * @property {{ cpuMsPerS: number, rssKiB: number }} todos
 */

/** A metric, or its fallback (noted in `used`). */
function figure(metrics, name, used) {
  if (typeof metrics[name] === 'number' && metrics[name] > 0) {
    used[name] = { value: metrics[name], measured: true };
    return metrics[name];
  }
  used[name] = { value: FALLBACKS[name], measured: false };
  return FALLBACKS[name];
}

/** Gzipped bytes of the heaviest first load the web bench reported (`web.*` metrics naming gzip), if any. */
export function firstLoadBytes(metrics) {
  const loads = Object.entries(metrics)
    .filter(([name]) => name.startsWith('web.') && /gzip/i.test(name))
    .map(([name, value]) => (/kib/i.test(name) ? value * 1024 : /kb$/i.test(name) ? value * 1000 : value));
  return loads.length ? { value: Math.max(...loads), measured: true } : { value: FALLBACKS['web.firstLoadBytes'], measured: false };
}

/**
 * The model at one scale.
 * @param {number} users @param {Inputs} inputs @param {Record<string, { value: number, measured: boolean }>} used
 */
export function modelAt(users, { metrics, limits, streams }, used) {
  const a = Object.fromEntries(Object.entries(ASSUMPTIONS).map(([key, { value }]) => [key, value]));
  const gatewayMs = a.readShare * figure(metrics, 'cpu.gateway.msPerRequest', used) + (1 - a.readShare) * figure(metrics, 'cpu.gateway.add.msPerRequest', used);
  const todosMs = a.readShare * figure(metrics, 'cpu.todos.msPerRequest', used) + (1 - a.readShare) * figure(metrics, 'cpu.todos.add.msPerRequest', used);
  const hashesPerCore = figure(metrics, 'signin.perSecPerCore', used);
  const jsonPerTodo = figure(metrics, 'payload.100.bytes', used) / 100;
  const web = firstLoadBytes(metrics);
  used['web (gzipped first load, heaviest screen)'] = web;

  const active = users * a.dailyActiveShare;
  const concurrent = users * a.concurrentShare;
  const averageCalls = (active * a.taskCallsPerActiveDay) / DAY_S;
  const peakCalls = averageCalls * a.peakFactor;
  const peakWrites = peakCalls * (1 - a.readShare);
  const peakHashes = ((active * a.hashesPerActiveDay) / DAY_S) * a.peakFactor;

  // The idle work of the open streams (pings relayed, sessions checked, feeds re-read), as measured: cores.
  const streamCores = {
    gateway: (concurrent * (streams?.gateway.cpuMsPerS ?? 0)) / 1000,
    todos: (concurrent * (streams?.todos.cpuMsPerS ?? 0)) / 1000,
  };
  // Demand over one unit's limit, per resource: above 1, that unit is not enough.
  const ratios = {
    gatewayCpu: ((peakCalls * gatewayMs) / 1000 + streamCores.gateway) / a.cpuTarget,
    gatewayStreams: concurrent / limits.gatewayMaxStreams,
    todosCpu: ((peakCalls * todosMs) / 1000 + streamCores.todos) / a.cpuTarget,
    todosStreams: concurrent / limits.todosMaxStreams,
    hashing: peakHashes / (hashesPerCore * a.cpuTarget),
  };
  const cores = ratios.gatewayCpu + ratios.todosCpu + ratios.hashing;
  // The embedded mode is one process of each kind on one machine (`npm start`): it ends when the cores run
  // out or any kind needs a second process.
  ratios.machine = Math.max(cores / a.machineCores, ...Object.values(ratios));

  const sessions = users * a.weeklyActiveShare * a.devicesPerUser;
  const sessionBytes = sessions * a.sessionBytes;
  // Login/signup counters per client IP (60 s and 1 h windows) and per account (15 min): the hashes of those windows.
  const rateLimitKeys = peakHashes * (60 + 3600 + 900);
  const rateLimitBytes = rateLimitKeys * a.rateLimitKeyBytes;
  const redisBytes = sessionBytes + rateLimitBytes;
  ratios.redis = redisBytes / a.redisBudgetBytes;

  const todoDataBytes = users * a.todosPerUser * (jsonPerTodo + a.todoOverheadBytes);
  const todoIndexBytes = users * a.todosPerUser * a.todoIndexBytes;
  const userBytes = users * a.userBytes;
  const eventBytes = peakWrites * a.eventRetentionS * a.eventBytes;
  const mongoBytes = todoDataBytes + todoIndexBytes + userBytes + eventBytes;
  ratios.mongoSize = mongoBytes / a.mongoWorkingSetBytes;
  // Each write stores the task and its change event in one transaction: two documents.
  const mongoWrites = peakWrites * 2;
  ratios.mongoWrites = mongoWrites / a.mongoWritesPerS;

  const processes = (ratio, ...more) => Math.max(a.minProcesses, Math.ceil(Math.max(ratio, ...more)));
  return {
    users,
    active,
    concurrent,
    averageCalls,
    peakCalls,
    peakFetches: peakCalls * a.readShare,
    peakWrites,
    peakHashes,
    processes: {
      gatewayForCpu: Math.ceil(ratios.gatewayCpu),
      gatewayForStreams: Math.ceil(ratios.gatewayStreams),
      gateway: processes(ratios.gatewayCpu, ratios.gatewayStreams),
      todos: processes(ratios.todosCpu, ratios.todosStreams),
      users: processes(ratios.hashing),
      cores: Math.round(cores * 100) / 100,
    },
    streamsPerGateway: concurrent / processes(ratios.gatewayCpu, ratios.gatewayStreams),
    streamsPerTodos: concurrent / processes(ratios.todosCpu, ratios.todosStreams),
    // What the streams take of each process: resident memory (MiB) and cores, at this scale's spread.
    streamMemoryMiB: {
      gateway: ((concurrent / processes(ratios.gatewayCpu, ratios.gatewayStreams)) * (streams?.gateway.rssKiB ?? 0)) / 1024,
      todos: ((concurrent / processes(ratios.todosCpu, ratios.todosStreams)) * (streams?.todos.rssKiB ?? 0)) / 1024,
    },
    streamCores: { gateway: Math.round(streamCores.gateway * 1000) / 1000, todos: Math.round(streamCores.todos * 1000) / 1000 },
    redis: {
      sessions,
      sessionBytes,
      rateLimitKeys,
      rateLimitBytes,
      bytes: redisBytes,
      pubsubMessagesPerS: peakWrites,
      pubsubBytesPerS: peakWrites * a.changeMessageBytes * processes(ratios.todosCpu, ratios.todosStreams),
      sessionChecksPerS: concurrent / (limits.sessionCheckMs / 1000),
    },
    mongo: { todoDataBytes, todoIndexBytes, userBytes, eventBytes, bytes: mongoBytes, writesPerS: mongoWrites, shards: Math.max(1, Math.ceil(ratios.mongoSize), Math.ceil(ratios.mongoWrites)) },
    cdn: { firstLoadBytes: web.value, coldLoadsPerDay: active * a.coldLoadsPerActiveDay, bytesPerDay: active * a.coldLoadsPerActiveDay * web.value },
    ratios,
  };
}

export const RESOURCE_NAMES = {
  gatewayStreams: 'open event streams per gateway process (EVENTS_MAX_STREAMS)',
  gatewayCpu: 'gateway CPU (one core per process)',
  todosStreams: 'open event streams per svc-todos process (TODO_EVENTS_MAX_STREAMS)',
  todosCpu: 'svc-todos CPU (one core per process)',
  hashing: 'password hashing in svc-users (one core)',
  machine: 'one machine in the embedded mode (SQLite files, 2 cores)',
  redis: 'one Redis instance\'s memory',
  mongoSize: 'one MongoDB replica set\'s working set (data + indexes in RAM)',
  mongoWrites: 'one MongoDB primary\'s writes',
};

/**
 * The whole model: each scale, and for each 10× step the limits it crosses, in the order it crosses them
 * (demands grow linearly with users, so each limit is crossed at users × 1 / ratio).
 * @param {Inputs} inputs @param {number[]} scales
 */
export function capacityModel(inputs, scales = [10_000, 100_000, 1_000_000, 10_000_000]) {
  /** @type {Record<string, { value: number, measured: boolean }>} */
  const used = {};
  const points = scales.map((users) => modelAt(users, inputs, used));
  const first = points[0];
  const crossings = Object.keys(RESOURCE_NAMES)
    .map((resource) => ({ resource, atUsers: Math.round(first.users / first.ratios[resource]) }))
    .sort((x, y) => x.atUsers - y.atUsers);
  const steps = points.map((point, i) => {
    const from = i === 0 ? 0 : points[i - 1].users;
    const crossed = crossings.filter((c) => c.atUsers > from && c.atUsers <= point.users);
    return { from, to: point.users, crossed: crossed.map((c) => ({ ...c, name: RESOURCE_NAMES[c.resource], remedy: REMEDIES[c.resource] })) };
  });
  return { assumptions: ASSUMPTIONS, limits: inputs.limits, streams: inputs.streams ?? null, used, points, crossings, steps, MiB, GiB };
}
