/** Splits `range.reservations.checkIn`, `checked_in`, `RangeReservation` or `lane-type` into lower-case words. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/** `range.reservations.create` -> `RangeReservationsCreate`. */
export function pascalCase(...parts: string[]): string {
  return parts
    .flatMap(words)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

/** `RangeReservation`, `status` -> `RANGE_RESERVATION_STATUS`. */
export function screamingSnake(...parts: string[]): string {
  return parts
    .flatMap(words)
    .map((word) => word.toUpperCase())
    .join('_');
}

/** The contract's rule for the name of a known-values list: +ES after a final S, else +S. */
export function pluralise(name: string): string {
  return /s$/i.test(name) ? `${name}ES` : `${name}S`;
}

/** `lines` -> `line`, so an enum inside an array of objects is named after one element. */
export function singularise(name: string): string {
  if (/ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return name;
}

/** A property key as it must be written in an object literal. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name);
}

/** A single-quoted string literal. */
export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** A JS literal for a JSON value (strings single-quoted). */
export function literal(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`unsupported literal ${JSON.stringify(value)}`);
}

/**
 * A JSDoc block from lines of text (empty result when there are none). `*\/` is broken up so a description
 * can never end the comment early.
 */
export function jsDoc(lines: readonly string[], indent = ''): string {
  const body = lines
    .flatMap((line) => line.split('\n'))
    .map((line) => line.replace(/\*\//g, '*\\/').trimEnd());
  while (body.length > 0 && body[body.length - 1] === '') body.pop();
  while (body.length > 0 && body[0] === '') body.shift();
  if (body.length === 0) return '';
  if (body.length === 1) return `${indent}/** ${body[0]} */\n`;
  return `${indent}/**\n${body.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)).join('\n')}\n${indent} */\n`;
}
