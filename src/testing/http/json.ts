import { writesNoted } from '../state/table.js';

const encoder = new TextEncoder();

interface Serialized {
  /** `JSON.stringify(record)`. */
  json: string;
  /** Its length in UTF-8 bytes. */
  bytes: number;
  /** `writesNoted()` when `json` was made. */
  at: number;
}

const serialized = new WeakMap<object, Serialized>();

/**
 * `JSON.stringify(record)` and its UTF-8 length, reused until the next noted write (`noteWrites()`, the rule
 * the tables' indexes rely on too), so lists read in a row serialize each record once.
 */
function serializedOf(record: object): Serialized {
  const now = writesNoted();
  const cached = serialized.get(record);
  if (cached !== undefined && cached.at === now) return cached;
  const json = JSON.stringify(record);
  const bytes = utf8Length(json);
  if (cached === undefined) {
    const fresh = { json, bytes, at: now };
    serialized.set(record, fresh);
    return fresh;
  }
  cached.json = json;
  cached.bytes = bytes;
  cached.at = now;
  return cached;
}

/**
 * The UTF-8 bytes of `before + JSON.stringify(records) + after`, each record's text from the cache above,
 * written into one buffer sized up front (from `allocate`, which may hand out a longer one): the page's only
 * copy.
 */
export function jsonArrayBytes(
  records: readonly object[],
  before: string,
  after: string,
  allocate: (length: number) => Uint8Array = (length) => new Uint8Array(length),
): Uint8Array {
  const parts = records.map(serializedOf);
  let length = utf8Length(before) + utf8Length(after) + 2 + Math.max(0, parts.length - 1);
  for (const part of parts) length += part.bytes;
  const out = allocate(length).subarray(0, length);
  let at = encoder.encodeInto(before, out).written;
  out[at++] = 0x5b; // [
  for (let index = 0; index < parts.length; index++) {
    if (index > 0) out[at++] = 0x2c; // ,
    at += encoder.encodeInto(parts[index]!.json, out.subarray(at)).written;
  }
  out[at++] = 0x5d; // ]
  encoder.encodeInto(after, out.subarray(at));
  return out;
}

/** The length of `text` in UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes, as TextEncoder writes it). */
export function utf8Length(text: string): number {
  let length = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) length += 1;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        // A pair: two UTF-16 units, four bytes.
        length += 2;
        index++;
      } else length += 2;
    } else length += 2;
  }
  return length;
}
