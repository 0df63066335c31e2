/** The SDK's own version, sent in the User-Agent. Kept equal to package.json by test/package.test.ts. */
export const VERSION = '0.1.0';
