// The web build's entry (dist/web/index.js, also www/pkg/index.js): wasm-bindgen's
// module with the fast `assign()` of fast-assign.mjs in place of the strict one.
// Copied next to wasm-bindgen's output by scripts/build-wasm.sh.
import { assign as strictAssign, __assignPacked } from "./streams_rebalance.js";
import { fastAssign } from "./fast-assign.js";

export * from "./streams_rebalance.js";
export { default } from "./streams_rebalance.js";
export const assign = fastAssign(strictAssign, __assignPacked);
