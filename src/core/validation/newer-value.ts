/**
 * A request value newer than this SDK: a filter or field value the API added after the SDK was generated,
 * which the SDK's closed request types would refuse as a typo. Typed `never` so it fits any field; sent as
 * given (the runtime check of a documented value list lets any string through, the server decides).
 * @example
 * await shop.range.rentals.list({ status: newerValue('lost') }); // a status this SDK does not know yet
 */
export function newerValue(value: string): never {
  return value as never;
}
