import type { ListMeta as DocumentedListMeta } from '../../generated/schemas.js';
import { ShopError } from '../errors/shop-error.js';
import { InvalidResponseError } from '../errors/transport-errors.js';
import type { CallState } from '../transport/call.js';
import { APIPromise, LazyAPIResponse } from './api-promise.js';

/**
 * The `meta` of a cursor-paginated list (reference section 4): the spec's `ListMeta`, whose field types it
 * takes, except that `limit` may be missing, since a page without it can still be walked. The one `ListMeta`
 * the package exports; fields the API adds later are kept.
 */
export interface ListMeta
  extends Pick<DocumentedListMeta, 'has_more' | 'next_cursor'>,
    Partial<Pick<DocumentedListMeta, 'limit'>> {
  readonly [field: string]: unknown;
}

/** A validated page, as the transport hands it to a walk: its items, its `meta`, the response and the call. */
export interface ReceivedPage<T> {
  readonly data: T[];
  readonly meta: ListMeta;
  readonly response: Response;
  readonly call: CallState;
}

/**
 * Fetches the page that starts at `cursor` (undefined: the caller's first page). `maxPages`, when set, bounds
 * a walk (the call's `maxPages` option).
 */
export type PageSender<T> = ((cursor: string | undefined) => Promise<ReceivedPage<T>>) & {
  readonly maxPages?: number;
};

/**
 * What every page of one walk shares: the cursors requested over its first {@link EXACT_PAGES} pages and the
 * depth (pages from the first) each was requested at. One map per walk, added to in O(1) per page, never
 * copied, and never larger than that: a walk keeps nothing per page past it.
 */
interface Walk {
  readonly requested: Map<string, number>;
  readonly maxPages: number;
}

/**
 * Pages over which every requested cursor is remembered, so that a loop coming back to one of them is refused
 * before the repeat is sent. Past it, a page remembers one cursor of its chain (requested at a power-of-two
 * depth, handed from page to page): a loop entered later is still refused, after at most about as many more
 * pages as the walk had when it entered it, with memory that does not grow with the walk.
 */
const EXACT_PAGES = 1024;

/** The cursor of this page's chain last remembered past {@link EXACT_PAGES}, and its depth. */
interface Mark {
  readonly cursor: string;
  readonly depth: number;
}

/**
 * One page of a list. Iterating it with `for await` continues through the following pages.
 */
export class Page<T> implements AsyncIterable<T> {
  /** The records of this page, oldest first. */
  readonly data: T[];
  /** True when the server said another page follows. */
  readonly hasMore: boolean;
  /** The cursor of the next page, or null. */
  readonly nextCursor: string | null;
  /** The page's `meta` as the server sent it. */
  readonly meta: ListMeta;
  readonly #send: PageSender<T>;
  readonly #walk: Walk;
  /** 0 for the walk's first page, 1 for the next, ... */
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

  /**
   * Fetches the next page, with the same query and request options. Rejects when there is none, when the
   * server's next cursor is one this walk already requested on the way here (a loop: InvalidResponseError),
   * and past the call's `maxPages`. Nothing is sent then.
   */
  getNextPage(): PagePromise<T> {
    const next = this.nextCursor;
    if (!this.hasNextPage() || next === null) {
      return rejected(new ShopError('No next page: check hasNextPage() before getNextPage()'));
    }
    const { requested, maxPages } = this.#walk;
    const depth = this.#depth + 1;
    let at = requested.get(next);
    // The mark was requested by this page's own chain, before this depth: a cursor leads to the same page.
    if (at === undefined && this.#mark?.cursor === next) at = this.#mark.depth;
    // Requested at this depth or before: by this page's own chain (fetching one page's next twice is no loop).
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
      // A power of two: a loop of any length entered before this depth comes back to this cursor by twice it.
      mark = { cursor: next, depth };
    }
    return fetchPage(this.#send, next, this.#walk, depth, mark);
  }

  /** Every record from this page's first onward, requesting the following pages as the loop reaches them. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return records(this);
  }
}

/** Options of {@link PagePromise.toArray}. */
export interface ToArrayOptions {
  /** Stop after this many records; no page beyond the one that reaches it is requested. */
  max?: number;
}

/**
 * What a list call returns. `await` it for the first {@link Page}; `for await` over it for every record
 * across pages; `.pages()` for page after page; `.toArray({ max })` to collect.
 * @example
 * for await (const reservation of shop.range.reservations.list({ status: 'booked' })) console.log(reservation.id);
 */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  /** Every record of every page, oldest first; a page is requested when the loop reaches it. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    // One generator, not one delegating to the page's: `yield*` between async generators, or over an array,
    // costs promise turns per record (twice the time of this loop over 50,000 records).
    for (let page = await this.#first(); ; page = await page.getNextPage()) {
      for (const item of page.data) yield item;
      if (!page.hasNextPage()) return;
    }
  }

  /** Every page in turn, starting with the first; the next is requested only when the loop asks for it. */
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

  /** Collects the records of every page, or of as many pages as `max` needs. */
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

/** The records of `first` and of every page after it, a page requested when the loop reaches it. */
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

/**
 * Requests the page at `cursor` (undefined: the first) and wraps it. A cursor the server repeats is refused
 * only when the walk is about to request it again ({@link Page.getNextPage}): a walk that a `break` or
 * `toArray({ max })` ends first never fails for it, and a server answering A -> B -> A is not walked forever.
 */
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
