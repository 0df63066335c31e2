export { VERSION } from './internal/version.js';
