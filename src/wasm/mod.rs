//! The JavaScript binding: every export decodes its input, calls the core, encodes
//! its output. No protocol logic lives here.

pub mod convert;
pub mod simulation;

use crate::coordinator::Coordinator as CoreCoordinator;
use crate::protocol::json::decode;
use convert::{input, output, JsResult};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// `{ package, protocol }`: the package version and the protocol revision it models.
#[wasm_bindgen]
pub fn version() -> JsResult {
    output(&serde_json::json!({
        "package": crate::PACKAGE_VERSION,
        "protocol": crate::PROTOCOL_REVISION,
    }))
}

/// One simulated group coordinator with its own cluster and clock.
#[wasm_bindgen]
pub struct Coordinator {
    inner: CoreCoordinator,
}

#[wasm_bindgen]
impl Coordinator {
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue) -> Result<Coordinator, JsError> {
        let config = match input(&config, "config")? {
            None => Default::default(),
            Some(v) => decode(&v, "config").map_err(|e| JsError::new(&e))?,
        };
        Ok(Coordinator {
            inner: CoreCoordinator::new(config),
        })
    }

    /// StreamsGroupHeartbeatRequest in, StreamsGroupHeartbeatResponse out.
    pub fn heartbeat(&mut self, request: JsValue, context: JsValue) -> JsResult {
        let req = convert::required(&request, "heartbeat")?;
        let req = decode(&req, "heartbeat").map_err(|e| JsError::new(&e))?;
        let ctx = convert::context(&context)?;
        output(&self.inner.heartbeat(&req, &ctx))
    }

    /// The coordinator's clock, in ms.
    pub fn now(&self) -> f64 {
        self.inner.now() as f64
    }
}
