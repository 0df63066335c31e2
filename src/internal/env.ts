// Runtime lookups, each guarded: a Worker has no `process`, Deno may throw on `Deno.env.get`.

interface DenoLike {
  version?: { deno?: string };
  env?: { get(name: string): string | undefined };
}

interface ProcessLike {
  env?: Record<string, string | undefined>;
  version?: string;
  versions?: { node?: string; bun?: string };
  platform?: string;
  arch?: string;
}

const runtimeGlobals = globalThis as {
  process?: ProcessLike;
  Deno?: DenoLike;
  navigator?: { userAgent?: string };
};

/** Environment variable `name`, or undefined without access. */
export function readEnv(name: string): string | undefined {
  try {
    const fromProcess = runtimeGlobals.process?.env?.[name];
    if (fromProcess !== undefined) return fromProcess;
    return runtimeGlobals.Deno?.env?.get(name);
  } catch {
    return undefined;
  }
}

/** The runtime and its version for the User-Agent, e.g. `node/20.20.2; linux x64`. */
export function describeRuntime(): string {
  const { process: proc, Deno: deno, navigator: nav } = runtimeGlobals;
  if (proc?.versions?.bun) return `bun/${proc.versions.bun}`;
  if (deno?.version?.deno) return `deno/${deno.version.deno}`;
  if (proc?.versions?.node) {
    const platform = proc.platform && proc.arch ? `; ${proc.platform} ${proc.arch}` : '';
    return `node/${proc.versions.node}${platform}`;
  }
  if (nav?.userAgent === 'Cloudflare-Workers') return 'cloudflare-workers';
  return 'unknown-runtime';
}
