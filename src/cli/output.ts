/** Where the CLI writes and how: colours and a spinner on a TTY, plain lines when piped, JSON lines. */
export interface OutputMode {
  readonly json: boolean;
  readonly tty: boolean;
}

const COLOURS = { green: 32, red: 31, yellow: 33, dim: 2, bold: 1, cyan: 36 } as const;
type Colour = keyof typeof COLOURS;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Picks the mode from the flags and the terminal: NO_COLOR and a pipe both mean plain text. */
export function outputMode(
  json: boolean | undefined,
  stream: NodeJS.WriteStream = process.stdout,
): OutputMode {
  return { json: json === true, tty: stream.isTTY === true && !process.env.NO_COLOR };
}

/**
 * The one writer of the CLI. Human lines go to stdout (coloured on a TTY); `--json` writes one JSON object a
 * line instead and nothing else to stdout; notes and errors go to stderr in every mode.
 */
export class Output {
  #spinner: { timer: ReturnType<typeof setInterval>; text: string } | null = null;

  constructor(
    readonly mode: OutputMode,
    private readonly out: NodeJS.WritableStream = process.stdout,
    private readonly err: NodeJS.WritableStream = process.stderr,
  ) {}

  /** `text` in `colour` on a TTY, as it is otherwise. */
  paint(colour: Colour, text: string): string {
    return this.mode.tty ? `\u001b[${COLOURS[colour]}m${text}\u001b[0m` : text;
  }

  /** A machine record with --json; the human `text` otherwise. */
  record(record: Record<string, unknown>, text: string): void {
    this.#clearSpinner();
    this.out.write(this.mode.json ? `${JSON.stringify(record)}\n` : `${text}\n`);
    this.#drawSpinner();
  }

  /** A note on stderr (what a command cannot do, where it saves): never mixed into --json stdout. */
  note(text: string): void {
    this.#clearSpinner();
    this.err.write(`${this.mode.json ? text : this.paint('dim', text)}\n`);
    this.#drawSpinner();
  }

  /** An error on stderr, as `{"error": ...}` with --json. */
  error(message: string): void {
    this.#clearSpinner();
    this.err.write(
      this.mode.json
        ? `${JSON.stringify({ error: message })}\n`
        : `${this.paint('red', 'error')} ${message}\n`,
    );
  }

  /** A spinner with `text` on a TTY (not with --json, not when piped). */
  spin(text: string): void {
    if (!this.mode.tty || this.mode.json) return;
    this.stopSpinner();
    let frame = 0;
    const timer = setInterval(() => {
      frame = (frame + 1) % FRAMES.length;
      this.#drawSpinner(frame);
    }, 80);
    timer.unref();
    this.#spinner = { timer, text };
    this.#drawSpinner(0);
  }

  /** Removes the spinner. */
  stopSpinner(): void {
    if (!this.#spinner) return;
    clearInterval(this.#spinner.timer);
    this.#clearSpinner();
    this.#spinner = null;
  }

  #frame = 0;

  #drawSpinner(frame = this.#frame): void {
    if (!this.#spinner) return;
    this.#frame = frame;
    this.out.write(`\r${this.paint('cyan', FRAMES[frame]!)} ${this.#spinner.text}`);
  }

  #clearSpinner(): void {
    if (this.#spinner) this.out.write('\r\u001b[2K');
  }
}

/**
 * An API key as the CLI may print it: its environment prefix and `[redacted]`, the way the SDK's errors
 * and logs leave keys out. Only `sandbox` prints its own dev key in full, because that is its point.
 */
export function maskKey(key: string): string {
  const prefix = /^sk_(?:test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}[redacted]`;
}

/** `HH:MM:SS` of a Date, for delivery lines. */
export function clockTime(date: Date = new Date()): string {
  return date.toISOString().slice(11, 19);
}

/** A table as text records: a header line, then a line a row, each column padded but the last. */
export function printColumns(output: Output, columns: readonly string[], rows: readonly string[][]): void {
  const widths = columns.map((title, index) =>
    Math.max(title.length, ...rows.map((row) => row[index]!.length)),
  );
  const format = (row: readonly string[]) =>
    row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index]!))).join('  ');
  output.record({}, format(columns));
  for (const row of rows) output.record({}, format(row));
}
