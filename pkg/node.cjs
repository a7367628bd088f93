"use strict";
// Node, CommonJS: the wasm-bindgen build for Node instantiates the module
// synchronously on require, so it is ready to use at once. init() and initSync()
// exist only so that code written for the browser build also runs here.
module.exports = require("./dist/node/streams_rebalance.js");
// assign(), warmupCaughtUp() and assignmentQuality(): the fast paths of
// js/fast-assign.mjs, falling back to the strict exports.
const { fastAssign, fastWarmupCaughtUp, fastAssignmentQuality } = require("./dist/node/fast-assign.js");
module.exports.assign = fastAssign(module.exports.assign, module.exports.__assignPacked);
module.exports.warmupCaughtUp = fastWarmupCaughtUp(
  module.exports.warmupCaughtUp,
  module.exports.__warmupCaughtUpPacked,
);
module.exports.assignmentQuality = fastAssignmentQuality(
  module.exports.assignmentQuality,
  module.exports.__assignmentQualityPacked,
);
module.exports.init = function init() {
  return Promise.resolve();
};
module.exports.initSync = function initSync() {};
