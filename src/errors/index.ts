/** The error catalogue (codes.ts) and the error classes that carry its codes. */
export * from './codes.js';
export * from './classes.js';
