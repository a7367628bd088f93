// The package's types for `import` (ES modules): everything index.d.ts declares, and
// the default export typed as init(). Under moduleResolution node16 / nodenext,
// index.d.ts is read as CommonJS (the package has no "type": "module"), where a
// default import would be the whole module; this file is what `import init from
// "streams-rebalance"` (or "streams-rebalance/web") resolves to instead, so the
// README's browser example type-checks there as it does under "bundler".
export * from "./index.js";

/** The wasm module's source for init(): a URL, a Response, bytes or a compiled module. */
type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

/**
 * Loads the WebAssembly module. Needed once in browsers and bundlers (the `browser`
 * condition, or the `streams-rebalance/web` entry) before any other call; in Node it
 * resolves at once (the module is loaded synchronously on import).
 */
export default function init(
  moduleOrPath?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<unknown>;
