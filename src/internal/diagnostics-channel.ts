// Diagnostics channels through process.getBuiltinModule: where there is none, nothing is published.

/** The part of a diagnostics channel a publisher uses. */
export interface ChannelLike {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

/** A getter for the channel `name`, looked up once (null where there is none). */
export function lazyChannel(name: string): () => ChannelLike | null {
  let found: ChannelLike | null | undefined;
  return () => {
    if (found !== undefined) return found;
    found = null;
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    try {
      const module = proc?.getBuiltinModule?.('node:diagnostics_channel') as
        | { channel?: (name: string) => ChannelLike }
        | undefined;
      if (typeof module?.channel === 'function') found = module.channel(name);
    } catch {
      found = null;
    }
    return found;
  };
}
