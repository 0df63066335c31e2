import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Formats TypeScript source with the project's own Biome (config, import order and safe fixes included), so
 * the output equals what `biome check --write` would leave and `biome check src/generated` passes. The
 * source is piped through stdin under a path inside src/generated: that path only selects the config and
 * the language, whatever directory the text is finally written to.
 */
export function formatSource(source: string, fileName: string, cwd: string): Promise<string> {
  const biome = require.resolve('@biomejs/biome/bin/biome');
  const args = [biome, 'check', '--write', `--stdin-file-path=src/generated/${fileName}`];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 && stdout.length > 0) resolve(stdout);
      else reject(new Error(`biome could not format generated ${fileName} (exit ${code}):\n${stderr}`));
    });
    child.stdin.end(source);
  });
}
