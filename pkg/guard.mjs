// A trapped WebAssembly instance, said plainly. When any call into the module throws a
// `WebAssembly.RuntimeError` (a trap: out of memory, `unreachable`), the instance is
// dead: its memory may be half-written, and every later call would fail in obscure
// ways ("recursive use of an object", another trap). The guard marks the instance,
// and every object made by it, dead at once, and each later call throws one clear
// `Error` naming the call that trapped; a fresh instance comes from `reset()` (Node) or
// `init()` of a fresh import (browsers).
//
// `guard(glue, name)` wraps, in place, every exported function and every method,
// getter and static method of every exported class of a wasm-bindgen module `glue`.
// Returns the state: `{ dead, trappedIn, cause }`. Written as an ES module; the build
// derives the CommonJS copy for Node (scripts/build-wasm.sh).

/** The message of every call after a trap. */
export function trappedMessage(state) {
  return (
    `the WebAssembly instance trapped in ${state.trappedIn} (${state.cause}); ` +
    "every object of that instance is dead: create a new module instance " +
    "(reset() in Node, init() of a fresh import in browsers) and build the state again, " +
    "e.g. Coordinator.fromRecords(config, records) from records saved before"
  );
}

function deadError(state) {
  const e = new Error(trappedMessage(state));
  e.kind = "trapped";
  e.path = "";
  return e;
}

function wrap(state, fn, name) {
  return function guarded(...args) {
    if (state.dead) throw deadError(state);
    try {
      return fn.apply(this, args);
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        state.dead = true;
        state.trappedIn = name;
        state.cause = e.message;
        throw deadError(state);
      }
      throw e;
    }
  };
}

function wrapProperties(state, target, prefix) {
  for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(target))) {
    if (key === "constructor" || key === "prototype" || key === "length" || key === "name") continue;
    const name = `${prefix}${key}`;
    const next = { ...d };
    let changed = false;
    if (typeof d.value === "function") {
      next.value = wrap(state, d.value, name);
      changed = true;
    }
    if (typeof d.get === "function") {
      next.get = wrap(state, d.get, name);
      changed = true;
    }
    if (typeof d.set === "function") {
      next.set = wrap(state, d.set, name);
      changed = true;
    }
    if (changed && d.configurable) Object.defineProperty(target, key, next);
  }
}

/** Wraps `glue`'s exports in place (functions replaced on `exports`). */
export function guard(glue, exports = glue) {
  const state = { dead: false, trappedIn: null, cause: null };
  for (const [key, value] of Object.entries(glue)) {
    if (typeof value !== "function" || key === "default" || key === "initSync") continue;
    const isClass = value.prototype && Object.getOwnPropertyNames(value.prototype).length > 1;
    if (isClass) {
      wrapProperties(state, value.prototype, `${key}.prototype.`);
      wrapProperties(state, value, `${key}.`);
      // Constructing after a trap is refused too.
      exports[key] = new Proxy(value, {
        construct(target, args, newTarget) {
          if (state.dead) throw deadError(state);
          try {
            return Reflect.construct(target, args, newTarget);
          } catch (e) {
            if (e instanceof WebAssembly.RuntimeError) {
              state.dead = true;
              state.trappedIn = `new ${key}`;
              state.cause = e.message;
              throw deadError(state);
            }
            throw e;
          }
        },
      });
    } else {
      exports[key] = wrap(state, value, key);
    }
  }
  return state;
}
