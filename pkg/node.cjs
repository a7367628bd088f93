"use strict";
// Node, CommonJS: the wasm-bindgen build for Node instantiates the module
// synchronously on require, so it is ready to use at once. init() and initSync()
// exist only so that code written for the browser build also runs here. Every export
// is guarded (pkg/guard.mjs): after a trap each call throws one clear Error, and
// reset() gives a fresh instance (dist/node/index.cjs, written by the build).
module.exports = require("./dist/node/index.cjs");
module.exports.init = function init() {
  return Promise.resolve();
};
module.exports.initSync = function initSync() {};
