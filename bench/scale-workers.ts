// Starts scale-worker.ts processes and talks to them over IPC, for bench/scale.ts and test/redis/*.
import { type ChildProcess, fork } from 'node:child_process';
import { resolve } from 'node:path';
import type { CallOutcome, WorkerReply, WorkerRun, WorkerSetup } from './scale-worker.js';

const WORKER = resolve(import.meta.dirname, 'scale-worker.ts');

/** One worker process. */
export interface Worker {
  /** Runs calls in the worker; resolves with every outcome and the log lines it wrote meanwhile. */
  run(run: WorkerRun): Promise<{ outcomes: CallOutcome[]; warnings: string[] }>;
  /** Closes its Redis client and lets it exit. */
  stop(): Promise<void>;
}

function nextReply(child: ChildProcess): Promise<WorkerReply> {
  return new Promise((done, fail) => {
    const onExit = (code: number | null) => fail(new Error(`worker ${child.pid} exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (reply: WorkerReply) => {
      child.off('exit', onExit);
      done(reply);
    });
  });
}

/** Starts `count` workers, each set up with `setup(index)`; resolves once all are ready. */
export async function startWorkers(count: number, setup: (index: number) => WorkerSetup): Promise<Worker[]> {
  const children = Array.from({ length: count }, () =>
    fork(WORKER, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  await Promise.all(
    children.map((child, index) => {
      const ready = nextReply(child);
      child.send({ setup: setup(index) });
      return ready;
    }),
  );
  return children.map((child) => ({
    async run(run) {
      const reply = nextReply(child);
      child.send({ run });
      const done = await reply;
      if (done.type !== 'done') throw new Error(`worker ${child.pid}: unexpected reply ${done.type}`);
      return { outcomes: done.outcomes, warnings: done.warnings };
    },
    async stop() {
      if (child.exitCode !== null || !child.connected) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.send({ stop: true });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  }));
}
