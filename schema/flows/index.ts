/**
 * The flow builder's shared definitions (issue 5; DESIGN.md "The flow engine"): block types and
 * their data schemas, the block registry, the versioned flow document with its migrations, and
 * validation. Pure: imported by the worker (API validation, the engine) and the web (the editor).
 */
export * from "./blocks";
export * from "./registry";
export * from "./document";
export * from "./validate";
