// Node, ES module: the same synchronously loaded build as node.cjs (no init needed).
// The default export is a no-op init() so that code written for the browser build
// (`import init, { ... } from "streams-rebalance"; await init();`) runs unchanged.
// Named imports are bound at import time: after reset(), use the object it returns.
export * from "./node.cjs";

import wasm from "./node.cjs";

export default wasm.init;
