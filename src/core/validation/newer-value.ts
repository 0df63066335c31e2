/**
 * A request value newer than this SDK, which its closed types would refuse as a typo; typed `never`, sent as given.
 * @example
 * await shop.range.rentals.list({ status: newerValue('lost') });
 */
export function newerValue(value: string): never {
  return value as never;
}
