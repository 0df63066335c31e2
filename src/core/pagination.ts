import type { ListMeta as DocumentedListMeta } from '../generated/schemas.js';
import { APIPromise, LazyAPIResponse } from './api-promise.js';
import { ShopError } from './errors/shop-error.js';
import { InvalidResponseError } from './errors/transport-errors.js';
import type { ReceivedPage } from './transport.js';

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

/** Fetches the page that starts at `cursor` (undefined: the caller's first page). */
export type PageSender<T> = (cursor: string | undefined) => Promise<ReceivedPage<T>>;

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
  /** The cursors this walk has requested so far, this page's included. */
  readonly #seen: ReadonlySet<string>;

  constructor(received: ReceivedPage<T>, send: PageSender<T>, seen: ReadonlySet<string> = NONE_SEEN) {
    this.data = received.data;
    this.meta = received.meta;
    this.hasMore = received.meta.has_more;
    this.nextCursor = received.meta.next_cursor ?? null;
    this.#send = send;
    this.#seen = seen;
  }

  /** True when {@link Page.getNextPage} has a page to fetch. */
  hasNextPage(): boolean {
    return this.hasMore && this.nextCursor !== null;
  }

  /** Fetches the next page, with the same query and request options. Rejects when there is none. */
  getNextPage(): PagePromise<T> {
    if (!this.hasNextPage() || this.nextCursor === null) {
      return new PagePromise(
        Promise.reject(new ShopError('No next page: check hasNextPage() before getNextPage()')),
      );
    }
    return fetchPage(this.#send, this.nextCursor, this.#seen);
  }

  /** Every record from this page's first onward, requesting the following pages as the loop reaches them. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page: Page<T> = this;
    for (;;) {
      yield* page.data;
      if (!page.hasNextPage()) return;
      page = await page.getNextPage();
    }
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
    yield* await this.#first();
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

const NONE_SEEN: ReadonlySet<string> = new Set();

/**
 * Requests the page at `cursor` and wraps it, refusing a next cursor this walk has already requested: a
 * server answering A -> B -> A would otherwise be walked forever. The cursors are those of this page's own
 * chain, so fetching a page's next page twice is no cycle.
 */
export function fetchPage<T>(
  send: PageSender<T>,
  cursor?: string,
  seenBefore: ReadonlySet<string> = NONE_SEEN,
): PagePromise<T> {
  return new PagePromise(
    send(cursor).then((received) => {
      const seen = cursor === undefined ? seenBefore : new Set(seenBefore).add(cursor);
      const next = received.meta.next_cursor;
      if (received.meta.has_more && typeof next === 'string' && seen.has(next)) {
        throw new InvalidResponseError(
          'The list returned a cursor this walk already requested; stopping instead of looping',
          received.response.status,
          received.response.headers,
        );
      }
      return new LazyAPIResponse(new Page(received, send, seen), received.response, received.call);
    }),
  );
}
