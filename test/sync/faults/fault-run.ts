// One fault run against an inbox store, shared by postgres-faults.test.ts and redis-faults.test.ts: a receiver
// and worker in a child process (restarted if it dies, each death counted), signed deliveries sent every
// 100 ms from a second before the fault until a second after it, each retried until a 2xx as the service
// does, then a wait until the store says every event is processed (or 30 s pass). The store is read through
// `counts`; what the child reported on stderr is sorted into typed errors and anything else.
import { type ChildProcess, fork } from 'node:child_process';
import { buildEvent, signedDelivery } from '../../../src/testing/factories/index.js';
import { freePort } from '../../setup/redis-server.js';

/** The sender's own deadline (reference section 6): no answer within it is a hang. */
const SENDER_TIMEOUT_MS = 10_000;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export interface FaultFigures {
  fault: string;
  events: number;
  lost: number;
  twice: number;
  dead: number;
  exits: number;
  hangs: number;
  answered503: number;
  otherAnswers: number;
  /** Typed errors the child reported, `"<listener> <name>": count`, as JSON. */
  errors: string;
}

export interface FaultRun extends FaultFigures {
  /** stderr lines that are not an error a listener reported: a crash's stack, an unhandled rejection. */
  unexpected: string[];
  /** Effects per event id. */
  applied: Map<string, number>;
  /** When each event's delivery was answered 2xx (the sender's side of "received"). */
  ackedAt: Map<string, number>;
}

export interface FaultRunOptions {
  fault: string;
  childScript: string;
  secret: string;
  /** The child's environment besides PORT and SECRET. */
  env: Record<string, string>;
  /** The fault; `probe` makes one delivery now and resolves with its first answer's status. */
  during: (probe: () => Promise<number>) => Promise<void>;
  /** What the store holds now: effects per event id, events not yet done, dead letters. */
  counts: () => Promise<{ applied: Map<string, number>; open: number; dead: number }>;
  /** The stderr lines that are a listener's report (the rest are `unexpected`). */
  reported: RegExp;
}

export async function faultRun(options: FaultRunOptions): Promise<FaultRun> {
  const { fault, secret } = options;
  const port = await freePort();
  const stderr: string[] = [];
  let child: ChildProcess | null = null;
  let exits = 0;
  let supervising = true;
  let ready: Promise<void> = Promise.resolve();
  const spawnChild = () => {
    const started = fork(options.childScript, [], {
      env: { ...process.env, ...options.env, PORT: String(port), SECRET: secret },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    child = started;
    started.stderr?.on('data', (chunk: Buffer) => stderr.push(...chunk.toString('utf8').split('\n')));
    ready = new Promise<void>((done) => {
      started.once('message', () => done());
      started.once('exit', () => done());
    });
    started.once('exit', () => {
      if (!supervising) return;
      // A process that died is a finding; a platform would restart it, so the run goes on to count the rest.
      exits++;
      spawnChild();
    });
  };
  spawnChild();
  await ready;

  const ids: string[] = [];
  const ackedAt = new Map<string, number>();
  const acknowledged: Promise<void>[] = [];
  let hangs = 0;
  let answered503 = 0;
  let otherAnswers = 0;
  const deliver = (first?: (status: number) => void) => {
    const id = `evt_${fault}_${ids.length}`;
    ids.push(id);
    const event = buildEvent('sale.completed', { id });
    const sending = (async () => {
      for (let attempt = 1; ; attempt++) {
        await ready;
        const delivery = await signedDelivery(event, { secret, attempt });
        let status = 0;
        try {
          const response = await fetch(`http://127.0.0.1:${port}/`, {
            method: 'POST',
            headers: delivery.headers,
            body: delivery.body,
            signal: AbortSignal.timeout(SENDER_TIMEOUT_MS),
          });
          status = response.status;
          await response.arrayBuffer();
        } catch (error) {
          if ((error as Error).name === 'TimeoutError') hangs++;
        }
        if (attempt === 1) first?.(status);
        if (status >= 200 && status < 300) {
          ackedAt.set(id, Date.now());
          return;
        }
        if (status === 503) answered503++;
        else if (status !== 0) otherAnswers++;
        await sleep(200);
      }
    })();
    acknowledged.push(sending);
  };
  const probe = () => new Promise<number>((done) => deliver(done));

  let producing = true;
  const producer = (async () => {
    while (producing) {
      deliver();
      await sleep(100);
    }
  })();
  await sleep(1000);
  await options.during(probe);
  await sleep(1000);
  producing = false;
  await producer;
  await Promise.all(acknowledged);

  let store = await options.counts();
  const deadline = Date.now() + 30_000;
  while (!(store.applied.size >= ids.length && store.open === 0) && Date.now() <= deadline) {
    await sleep(200);
    store = await options.counts();
  }
  supervising = false;
  const running = child as ChildProcess | null;
  if (running && running.exitCode === null) {
    const gone = new Promise((done) => running.once('exit', done));
    running.kill('SIGKILL');
    await gone;
  }
  const errors = new Map<string, number>();
  for (const line of stderr) {
    const match = /^error (\w+) (\w+):/.exec(line);
    if (match) errors.set(`${match[1]} ${match[2]}`, (errors.get(`${match[1]} ${match[2]}`) ?? 0) + 1);
  }
  return {
    fault,
    events: ids.length,
    lost: ids.filter((id) => !store.applied.has(id)).length,
    twice: [...store.applied.values()].filter((n) => n > 1).length,
    dead: store.dead,
    exits,
    hangs,
    answered503,
    otherAnswers,
    errors: JSON.stringify(Object.fromEntries(errors)),
    unexpected: stderr.filter((line) => line.trim() !== '' && !options.reported.test(line)),
    applied: store.applied,
    ackedAt,
  };
}

/** The figures of a file's runs, one JSON line each, and their totals. */
export function faultSummary(label: string, runs: readonly FaultFigures[]): string {
  const sum = (key: 'lost' | 'twice' | 'exits' | 'hangs' | 'answered503') =>
    runs.reduce((total, run) => total + run[key], 0);
  const rows = runs.map(
    ({ fault, events, lost, twice, dead, exits, hangs, answered503, otherAnswers, errors }) =>
      JSON.stringify({ fault, events, lost, twice, dead, exits, hangs, answered503, otherAnswers, errors }),
  );
  return `[db faults, ${label}] runs: ${runs.length}\n${rows.join('\n')}\n[db faults, ${label}] total: lost ${sum('lost')}, applied twice ${sum('twice')}, exits ${sum('exits')}, hangs ${sum('hangs')}, 503s ${sum('answered503')}`;
}
