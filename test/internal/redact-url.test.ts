import { describe, expect, it } from 'vitest';
import { withoutCredentials } from '../../src/internal/redact.js';

describe('withoutCredentials', () => {
  it('cuts the user and password out of every URL, leaving the rest', () => {
    expect(withoutCredentials('postgres://app:s3cret@db.internal:5432/shop')).toBe(
      'postgres://[redacted]@db.internal:5432/shop',
    );
    expect(withoutCredentials('inbox at redis://:pw@127.0.0.1:6379/0 and sqlite ./inbox.db')).toBe(
      'inbox at redis://[redacted]@127.0.0.1:6379/0 and sqlite ./inbox.db',
    );
    expect(withoutCredentials('postgres://db.internal/shop')).toBe('postgres://db.internal/shop');
  });
});
