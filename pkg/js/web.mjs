// The web build's entry (dist/web/index.js, also www/pkg/index.js): wasm-bindgen's
// module with the fast `assign()`, `warmupCaughtUp()` and `assignmentQuality()` of
// fast-assign.mjs in place of the strict ones.
// Copied next to wasm-bindgen's output by scripts/build-wasm.sh.
import {
  assign as strictAssign,
  warmupCaughtUp as strictWarmupCaughtUp,
  assignmentQuality as strictAssignmentQuality,
  __assignPacked,
  __warmupCaughtUpPacked,
  __assignmentQualityPacked,
} from "./streams_rebalance.js";
import { fastAssign, fastWarmupCaughtUp, fastAssignmentQuality } from "./fast-assign.js";

export * from "./streams_rebalance.js";
export { default } from "./streams_rebalance.js";
export const assign = fastAssign(strictAssign, __assignPacked);
export const warmupCaughtUp = fastWarmupCaughtUp(strictWarmupCaughtUp, __warmupCaughtUpPacked);
export const assignmentQuality = fastAssignmentQuality(strictAssignmentQuality, __assignmentQualityPacked);
