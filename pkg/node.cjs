"use strict";
// Node, CommonJS: the wasm-bindgen build for Node instantiates the module
// synchronously on require, so it is ready to use at once. init() and initSync()
// exist only so that code written for the browser build also runs here.
module.exports = require("./dist/node/streams_rebalance.js");
module.exports.init = function init() {
  return Promise.resolve();
};
module.exports.initSync = function initSync() {};
