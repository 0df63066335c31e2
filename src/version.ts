/**
 * The SDK's own version, sent in the User-Agent and exported so an application can log which SDK it runs.
 * Kept equal to package.json's by test/client.test.ts.
 */
export const VERSION = '0.1.0';
