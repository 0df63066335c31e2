/**
 * Hands the inbox's events to a BullMQ queue, each as the job whose id is the event id.
 *
 * @module shop-mgmt/inbox/bullmq
 */
// BullMQ adds nothing when a job with that id exists, so a forwarder that dies between "added" and "done"
// never makes a second job. bullmq is an optional peer, never imported at run time.
import { ShopError } from '../../core/errors/shop-error.js';
import type { ShopEvent } from '../../webhooks/events.js';
import type { Inbox, InboxWorker, InboxWorkerOptions } from './inbox.js';
import type { InboxTransaction } from './types.js';

/** The part of a BullMQ `Queue` the forwarder uses. */
export interface BullQueueLike {
  add(name: string, data: ShopEvent, options: { jobId: string } & Record<string, unknown>): Promise<unknown>;
}

/** Options of {@link forwardToBullMQ}, beside the inbox worker's. */
export interface BullForwarderOptions extends InboxWorkerOptions {
  /** @default the event's type */
  readonly jobName?: (event: ShopEvent) => string;
  /** Options of every job; keep completed jobs a day or more, so a second add is still refused. */
  readonly jobOptions?: Readonly<Record<string, unknown>>;
}

/**
 * Forwards every inbox event to `queue` as a job whose id is the event id; returns the inbox worker.
 * @example
 * import { Queue } from 'bullmq';
 * import { forwardToBullMQ } from 'shop-mgmt/inbox/bullmq';
 * const queue = new Queue('shop-events', { connection: { host: '127.0.0.1', port: 6379 } });
 * const forwarder = forwardToBullMQ(inbox, queue);
 * // at shutdown: await forwarder.stop(); await queue.close();
 */
export function forwardToBullMQ<Tx extends InboxTransaction | undefined>(
  inbox: Inbox<Tx>,
  queue: BullQueueLike,
  options: BullForwarderOptions = {},
): InboxWorker {
  if (typeof queue?.add !== 'function') {
    throw new ShopError('forwardToBullMQ needs a BullMQ Queue (new Queue(name, { connection })).');
  }
  const { jobName, jobOptions, ...worker } = options;
  return inbox.work(async (event) => {
    // BullMQ keeps ':' for its own keys and refuses it in a custom id; an event id from the API has none.
    if (event.id.includes(':')) {
      throw new ShopError(
        `The event id ${JSON.stringify(event.id)} has a ':', which BullMQ refuses in a job id.`,
      );
    }
    await queue.add(jobName ? jobName(event) : event.type, event, { ...jobOptions, jobId: event.id });
  }, worker);
}
