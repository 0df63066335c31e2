/**
 * Hands the inbox's events to a BullMQ queue, each as the job whose id is the event id.
 *
 * @module shop-mgmt/inbox/bullmq
 */
// `shop-mgmt/inbox/bullmq`: an inbox worker whose handler adds the event to a BullMQ queue with `jobId` set to
// the event id. BullMQ adds nothing when a job with that id is already in the queue, so a forwarder that dies
// between "added" and "done" (and runs the event again after restart) never makes a second job. bullmq is an
// optional peer: this module takes the partner's `Queue` and imports nothing of it at run time.
import { ShopError } from '../../core/errors/shop-error.js';
import type { ShopEvent } from '../../webhooks/events.js';
import type { Inbox, InboxWorker, InboxWorkerOptions } from './inbox.js';
import type { InboxTransaction } from './types.js';

/** The little of a BullMQ `Queue` the forwarder uses (`queue.add(name, data, { jobId })`). */
export interface BullQueueLike {
  add(name: string, data: ShopEvent, options: { jobId: string } & Record<string, unknown>): Promise<unknown>;
}

/** How {@link forwardToBullMQ} names and adds jobs, and the inbox worker's own options. */
export interface BullForwarderOptions extends InboxWorkerOptions {
  /** The job's name. @default the event's type, e.g. `range_reservation.created` */
  readonly jobName?: (event: ShopEvent) => string;
  /**
   * BullMQ job options for every job (attempts, backoff, priority...). `jobId` is always the event id. Keep
   * completed jobs at least as long as the inbox may run an event again (`removeOnComplete: { age }` of a day
   * or more, not `true`): a job already removed is no longer there to refuse the second add.
   */
  readonly jobOptions?: Readonly<Record<string, unknown>>;
}

/**
 * Forwards every inbox event to `queue` as a job whose id is the event id (`queue.add(type, event, { jobId })`),
 * marking the event done once BullMQ has it; returns the inbox worker (`stop()`, `idle()`). With an inbox made
 * with `orderingKey`, the events of one object are added in order (the next is leased only when the one
 * before is done). A failed add is retried with the inbox's back-off, and dead-lettered after `maxAttempts`.
 *
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
