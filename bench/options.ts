// `npm run bench -- [options]`. Defaults are the targets (BENCHMARKS.md); --smoke shrinks every
// number so the whole thing runs in a minute or two (to keep the harness working; never asserts a time).
import { parseArgs } from 'node:util';
import { FLOOD_PATHS, type FloodPath } from './flood-paths';

/** Search seeds each user writing to the next five: fewer users would write to themselves. */
const PARTNERS_NEEDED = 7;

const SECTIONS = ['delivery', 'floor', 'connections', 'flood', 'frontend', 'search'] as const;
type Section = (typeof SECTIONS)[number];

export interface BenchOptions {
  sections: Section[];
  smoke: boolean;
  users: number;
  rate: number;
  durationS: number;
  warmupS: number;
  peakRate: number;
  peakDurationS: number;
  capacityConcurrency: number;
  capacityDurationS: number;
  drainS: number;
  sockets: number;
  idleS: number;
  thread: number;
  conversations: number;
  missed: number;
  /** Frontend: Lighthouse runs per page (0: not run). */
  lighthouseRuns: number;
  profile: boolean;
  postgres: boolean;
  /** Delivery against this many server nodes sharing Postgres and Redis. */
  nodes: number;
  /** Flood: loops (sockets, requests in flight) of the flooding account, seconds per phase, people sending, its messages, the paths flooded. */
  floodLoops: number;
  floodDurationS: number;
  floodVictims: number;
  floodRounds: number;
  floodThread: number;
  floodPaths: FloodPath[];
  /** Delivery: the steady load again with 10 % of the users typing and following presence, reported beside it. */
  typing: boolean;
  /** Delivery with Web Push: every user has a browser subscribed, on a push service on loopback. */
  push: boolean;
  /** Delivery: the steady load again with 10 % of the users reacting to and reading what they receive, reported beside it. */
  changes: boolean;
  keep: boolean;
  /** Search: messages seeded, users they are spread over, queries timed per kind. */
  searchMessages: number;
  searchUsers: number;
  searchQueries: number;
}

const HELP = `npm run bench -- [options]

  --only a,b              sections: delivery, floor, connections, flood, frontend, search (default: all)
  --smoke                 tiny numbers, a minute or two (frontend only when named in --only)
  --users N               delivery: connected users (2000)
  --rate M                delivery: msg/s between random pairs (1000)
  --duration S            delivery: seconds measured at that rate (60)
  --warmup S              delivery: seconds at that rate first, reported apart (5)
  --peak-rate M           delivery: the durable-throughput phase's msg/s (5000)
  --peak-duration S       (20; 0 skips it)
  --capacity-concurrency C  closed loop: messages in flight, one per sender (200)
  --capacity-duration S   (15; 0 skips it)
  --drain S               wait for outstanding acks and deliveries after each phase (10)
  --sockets K             connections: authenticated idle sockets to ramp to (20000)
  --idle S                connections: hold at K this long, measuring (30)
  --thread T              frontend: messages in the long thread (10000)
  --conversations C       frontend: conversations in the list (50)
  --missed X              frontend: messages missed while offline, then caught up (10000)
  --lighthouse-runs N     frontend: Lighthouse runs per page, the median reported (3; 0 skips it)
  --postgres              a throwaway PostgreSQL cluster for this run (initdb; else DATABASE_URL
                          if set, else PGlite under a temporary DATA_DIR)
  --nodes N               delivery: N server nodes sharing one Postgres (DATABASE_URL, else a
                          throwaway one) and a throwaway Redis; clients spread over them, p99
                          reported for same-node and cross-node pairs (1; the floor stays one node)
  --flood-paths a,b       flood: the paths flooded, one after another (default all: ${FLOOD_PATHS.join(', ')})
  --flood-loops K         flood: sockets or requests in flight the flooding account keeps (20, the
                          per-user socket cap)
  --flood-duration S      flood: seconds measured quiet, then as long flooded, per path (30: 600
                          sends a phase, so a p99 is not just its 3rd-worst)
  --flood-victims V       flood: other people sending 2 msg/s each, to V more (20: 1,200 sends a
                          phase, so a p99 is its 12th-worst)
  --flood-rounds R        flood: quiet then flooded, R times per path, S / R seconds each; each
                          phase pools its rounds, so the machine's background falls on both (3)
  --flood-thread T        flood: messages the flooding account has, so its syncs, pages and
                          exports read full pages (10000)
  --typing                delivery: after the steady phase, the same load again while 10% of the users
                          type (a signal every 3 s) and follow 30 people's presence; both reported
                          side by side (the floor has no typing: not run there)
  --push                  delivery: Web Push on, every user with a browser subscribed (a loopback
                          push service that accepts everything), to compare with a run without
  --changes               delivery: after the steady phase, the same load again while 10% of the users
                          react to and read the messages they receive (one change every 2 s each);
                          both reported side by side, so the send path's cost of changes shows
  --search-messages N     search: messages seeded with generate_series (1000000)
  --search-users U        search: users they are spread over, each writing to 5 partners (10000)
  --search-queries Q      search: queries timed per kind of query (200)
  --profile               CPU-profile the server during the steady phase, and during each flooded
                          phase (figures include its cost)
  --keep                  keep the temporary directory (server logs, data)
`;

function floodPaths(raw: string | undefined): FloodPath[] {
  if (!raw) return [...FLOOD_PATHS];
  const paths = raw.split(',').map((name) => name.trim()) as FloodPath[];
  for (const name of paths) if (!FLOOD_PATHS.includes(name)) throw new Error(`--flood-paths: unknown path "${name}" (${FLOOD_PATHS.join(', ')})`);
  return paths;
}

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      smoke: { type: 'boolean', default: false },
      users: { type: 'string' },
      rate: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      'peak-rate': { type: 'string' },
      'peak-duration': { type: 'string' },
      'capacity-concurrency': { type: 'string' },
      'capacity-duration': { type: 'string' },
      drain: { type: 'string' },
      sockets: { type: 'string' },
      idle: { type: 'string' },
      thread: { type: 'string' },
      conversations: { type: 'string' },
      missed: { type: 'string' },
      'lighthouse-runs': { type: 'string' },
      profile: { type: 'boolean', default: false },
      postgres: { type: 'boolean', default: false },
      nodes: { type: 'string' },
      'flood-loops': { type: 'string' },
      'flood-paths': { type: 'string' },
      'flood-duration': { type: 'string' },
      'flood-victims': { type: 'string' },
      'flood-rounds': { type: 'string' },
      'flood-thread': { type: 'string' },
      typing: { type: 'boolean', default: false },
      push: { type: 'boolean', default: false },
      changes: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      'search-messages': { type: 'string' },
      'search-users': { type: 'string' },
      'search-queries': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const smoke = values.smoke;
  const number = (name: keyof typeof values, full: number, small: number) => {
    const raw = values[name];
    if (raw === undefined) return smoke ? small : full;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number ≥ 0, not "${raw}"`);
    return value;
  };
  let sections: Section[];
  if (values.only) {
    sections = values.only.split(',').map((name) => name.trim()) as Section[];
    for (const name of sections) if (!SECTIONS.includes(name)) throw new Error(`--only: unknown section "${name}" (${SECTIONS.join(', ')})`);
  } else {
    // A smoke run stays in seconds: the front end needs a full Next build.
    sections = smoke ? ['floor', 'delivery', 'connections', 'flood', 'search'] : [...SECTIONS];
  }
  const options: BenchOptions = {
    sections,
    smoke,
    users: number('users', 2000, 20),
    rate: number('rate', 1000, 50),
    durationS: number('duration', 60, 3),
    warmupS: number('warmup', 5, 1),
    peakRate: number('peak-rate', 5000, 200),
    peakDurationS: number('peak-duration', 20, 2),
    capacityConcurrency: number('capacity-concurrency', 200, 10),
    capacityDurationS: number('capacity-duration', 15, 2),
    drainS: number('drain', 10, 3),
    sockets: number('sockets', 20_000, 200),
    idleS: number('idle', 30, 2),
    thread: number('thread', 10_000, 200),
    conversations: number('conversations', 50, 5),
    missed: number('missed', 10_000, 200),
    lighthouseRuns: number('lighthouse-runs', 3, 3),
    profile: values.profile,
    postgres: values.postgres,
    nodes: number('nodes', 1, 1),
    floodLoops: number('flood-loops', 20, 5),
    floodDurationS: number('flood-duration', 30, 2),
    floodVictims: number('flood-victims', 20, 4),
    floodRounds: number('flood-rounds', 3, 1),
    floodThread: number('flood-thread', 10_000, 600),
    floodPaths: floodPaths(values['flood-paths']),
    typing: values.typing,
    push: values.push,
    changes: values.changes,
    keep: values.keep,
    searchMessages: number('search-messages', 1_000_000, 20_000),
    searchUsers: number('search-users', 10_000, 200),
    searchQueries: number('search-queries', 200, 20),
  };
  if (options.searchUsers < PARTNERS_NEEDED) throw new Error(`--search-users must be at least ${PARTNERS_NEEDED}`);
  if (options.users < 2) throw new Error('--users must be at least 2');
  if (!Number.isInteger(options.nodes) || options.nodes < 1) throw new Error('--nodes must be a whole number ≥ 1');
  return options;
}
