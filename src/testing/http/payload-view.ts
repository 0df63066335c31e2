// What an API key may see of a payload (the redaction itself: events/payload-view.ts).
import type { PayloadViewer } from '../events/payload-view.js';
import { type ApiKey, hasPermission } from './keys.js';

/** What an API key may see of embedded customers (reference section 5, rule 9). */
export function viewerForKey(key: ApiKey): PayloadViewer {
  return {
    fullCustomers: hasPermission(key, 'customers:read'),
    dateOfBirth: hasPermission(key, 'customer_dob:read'),
  };
}
