import type { ListMeta as DocumentedListMeta } from '../../generated/schemas.js';
import { ShopError } from '../errors/shop-error.js';
import { InvalidResponseError } from '../errors/transport-errors.js';
import type { CallState } from '../transport/call.js';
import { APIPromise, LazyAPIResponse } from './api-promise.js';

/** The `meta` of a cursor-paginated list; unknown fields are kept. */
export interface ListMeta
  extends Pick<DocumentedListMeta, 'has_more' | 'next_cursor'>,
    Partial<Pick<DocumentedListMeta, 'limit'>> {
  readonly [field: string]: unknown;
}

/** A validated page from the transport. */
export interface ReceivedPage<T> {
  readonly data: T[];
  readonly meta: ListMeta;
  readonly response: Response;
  readonly call: CallState;
}

/** Fetches the page at `cursor` (undefined: the first). */
export type PageSender<T> = ((cursor: string | undefined) => Promise<ReceivedPage<T>>) & {
  readonly maxPages?: number;
};

/** Cursors one walk requested, by depth. */
interface Walk {
  readonly requested: Map<string, number>;
  readonly maxPages: number;
}

/** Pages whose every cursor is remembered for loop detection; past it, one at power-of-two depths. */
const EXACT_PAGES = 1024;

/** The last cursor remembered past {@link EXACT_PAGES}, and its depth. */
interface Mark {
  readonly cursor: string;
  readonly depth: number;
}

/** One page of a list; `for await` continues through the later pages. */
export class Page<T> implements AsyncIterable<T> {
  /** Oldest first. */
  readonly data: T[];
  readonly hasMore: boolean;
  readonly nextCursor: string | null;
  readonly meta: ListMeta;
  readonly #send: PageSender<T>;
  readonly #walk: Walk;
  /** 0 for the walk's first page. */
  readonly #depth: number;
  readonly #mark: Mark | undefined;
  readonly #response: Response;

  constructor(received: ReceivedPage<T>, send: PageSender<T>, walk?: Walk, depth = 0, mark?: Mark) {
    this.data = received.data;
    this.meta = received.meta;
    this.hasMore = received.meta.has_more;
    this.nextCursor = received.meta.next_cursor ?? null;
    this.#send = send;
    this.#walk = walk ?? newWalk(send);
    this.#depth = depth;
    this.#mark = mark;
    this.#response = received.response;
  }

  /** True when {@link Page.getNextPage} has a page to fetch. */
  hasNextPage(): boolean {
    return this.hasMore && this.nextCursor !== null;
  }

  /** Fetches the next page; rejects when there is none, on a cursor loop, and past `maxPages`. */
  getNextPage(): PagePromise<T> {
    const next = this.nextCursor;
    if (!this.hasNextPage() || next === null) {
      return rejected(new ShopError('No next page: check hasNextPage() before getNextPage()'));
    }
    const { requested, maxPages } = this.#walk;
    const depth = this.#depth + 1;
    let at = requested.get(next);
    if (at === undefined && this.#mark?.cursor === next) at = this.#mark.depth;
    if (at !== undefined && at < depth) {
      return rejected(
        new InvalidResponseError(
          `The list returned a cursor this walk already requested ${depth - at} page${depth - at === 1 ? '' : 's'} ago; stopping instead of looping`,
          this.#response.status,
          this.#response.headers,
        ),
      );
    }
    if (depth >= maxPages) {
      return rejected(
        new ShopError(
          `The walk reached maxPages (${maxPages}) and more pages follow; raise maxPages or narrow the list`,
        ),
      );
    }
    let mark = this.#mark;
    if (depth < EXACT_PAGES) {
      if (at === undefined) requested.set(next, depth);
    } else if ((depth & (depth - 1)) === 0) {
      // A loop entered before this depth comes back to this cursor by twice it.
      mark = { cursor: next, depth };
    }
    return fetchPage(this.#send, next, this.#walk, depth, mark);
  }

  /** Every record from this page onward. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return records(this);
  }
}

/** Options of {@link PagePromise.toArray}. */
export interface ToArrayOptions {
  /** Stop after this many records. */
  max?: number;
}

/** What a list call returns: `await` it for the first {@link Page}, `for await` for every record. */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  /** Every record of every page, each page requested when reached. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    // One generator: `yield*` would double the promise turns per record.
    for (let page = await this.#first(); ; page = await page.getNextPage()) {
      for (const item of page.data) yield item;
      if (!page.hasNextPage()) return;
    }
  }

  /** Every page in turn. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = await this.#first();
    for (;;) {
      yield page;
      if (!page.hasNextPage()) return;
      page = await page.getNextPage();
    }
  }

  #first(): Promise<Page<T>> {
    return this.then((page) => page);
  }

  /** Collects the records, up to `max`. */
  async toArray(options: ToArrayOptions = {}): Promise<T[]> {
    const max = options.max ?? Number.POSITIVE_INFINITY;
    if (!(max >= 0) || (Number.isFinite(max) && !Number.isInteger(max))) {
      throw new ShopError(`toArray: max must be a non-negative integer, got ${options.max}`);
    }
    const items: T[] = [];
    if (max === 0) return items;
    for await (const page of this.pages()) {
      for (const item of page.data) {
        items.push(item);
        if (items.length >= max) return items;
      }
    }
    return items;
  }
}

async function* records<T>(first: Page<T>): AsyncGenerator<T, void, undefined> {
  for (let page = first; ; page = await page.getNextPage()) {
    for (const item of page.data) yield item;
    if (!page.hasNextPage()) return;
  }
}

function rejected<T>(error: Error): PagePromise<T> {
  return new PagePromise(Promise.reject(error));
}

function newWalk(send: PageSender<unknown>): Walk {
  return { requested: new Map(), maxPages: send.maxPages ?? Number.POSITIVE_INFINITY };
}

export function fetchPage<T>(
  send: PageSender<T>,
  cursor?: string,
  walk?: Walk,
  depth = 0,
  mark?: Mark,
): PagePromise<T> {
  return new PagePromise(
    send(cursor).then(
      (received) =>
        new LazyAPIResponse(new Page(received, send, walk, depth, mark), received.response, received.call),
    ),
  );
}
