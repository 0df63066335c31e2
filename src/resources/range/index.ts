import { APIResource } from '../../core/resource.js';
import { Availability } from './availability.js';
import { RangeClasses } from './classes.js';
import { RentalCheckouts } from './rental-checkouts.js';
import { Rentals } from './rentals.js';
import { Reservations } from './reservations.js';
import { RangeResources } from './resources.js';
import { RangeSessions } from './sessions.js';

/**
 * `shop.range`: the shooting range (reference section 4, "Range" and "Rental fleet"). Every call needs
 * the shop's Range add-on, else 402 `RANGE_ADDON_REQUIRED`. Sub-groups are built on first use.
 */
export class ShootingRange extends APIResource {
  #resources?: RangeResources;
  #classes?: RangeClasses;
  #sessions?: RangeSessions;
  #availability?: Availability;
  #reservations?: Reservations;
  #rentals?: Rentals;
  #rentalCheckouts?: RentalCheckouts;

  /** Lanes, bays and instructors. */
  get resources(): RangeResources {
    this.#resources ??= new RangeResources(this._client);
    return this.#resources;
  }

  /** The classes the range offers. */
  get classes(): RangeClasses {
    this.#classes ??= new RangeClasses(this._client);
    return this.#classes;
  }

  /** Scheduled class sessions. */
  get sessions(): RangeSessions {
    this.#sessions ??= new RangeSessions(this._client);
    return this.#sessions;
  }

  /** Free resources for a time window, priced for the party. */
  get availability(): Availability {
    this.#availability ??= new Availability(this._client);
    return this.#availability;
  }

  /** Lane and class bookings: list, retrieve, create, checkIn, markNoShow, cancel. */
  get reservations(): Reservations {
    this.#reservations ??= new Reservations(this._client);
    return this.#reservations;
  }

  /** The rental-gun fleet (read only). */
  get rentals(): Rentals {
    this.#rentals ??= new Rentals(this._client);
    return this.#rentals;
  }

  /** The rental guns' custody history. */
  get rentalCheckouts(): RentalCheckouts {
    this.#rentalCheckouts ??= new RentalCheckouts(this._client);
    return this.#rentalCheckouts;
  }
}

export { Availability, RangeClasses, RangeResources, RangeSessions, RentalCheckouts, Rentals, Reservations };
