import type { StoredEvent } from './log.js';

/**
 * A one-shot change to the payload of the next event of one type, made before the event is
 * queued for delivery or kept in the feed (the CLI's `trigger --override`). The shop's record is unchanged.
 */
export class EventOverrides {
  #armed: { type: string; apply: (object: Record<string, unknown>) => void; done: () => void } | null = null;

  /** Changes the next event of `type` with `apply`; `done` is told when it happened. */
  arm(
    type: string,
    apply: (object: Record<string, unknown>) => void,
    done: () => void = () => undefined,
  ): void {
    this.#armed = { type, apply, done };
  }

  disarm(): void {
    this.#armed = null;
  }

  /** The event-log listener; registered before the delivery queue's, so deliveries carry the change. */
  readonly onRecord = (event: StoredEvent): void => {
    const armed = this.#armed;
    if (!armed || event.envelope.type !== armed.type) return;
    this.#armed = null;
    armed.apply(event.envelope.data.object);
    armed.done();
  };
}
