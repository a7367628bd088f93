//! The `History` class: a broker dump stepped through (API.md additions).

use super::convert::{decode_opt, error, output, JsResult};
use super::coordinator::kafka_text;
use crate::coordinator::kafka_records::history::History as Core;
use crate::coordinator::kafka_records::LoadOptions;
use crate::protocol::json::InputError;
use crate::protocol::GroupIds;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct History {
    inner: Core,
}

/// A step index: a non-negative integer below `length` (or -1: before any step).
fn step(v: f64, len: usize) -> Result<Option<usize>, JsValue> {
    if v == -1.0 {
        return Ok(None);
    }
    if v.is_finite() && v.fract() == 0.0 && v >= 0.0 && (v as usize) < len {
        return Ok(Some(v as usize));
    }
    Err(error(InputError::Decode {
        what: "step".to_owned(),
        path: String::new(),
        message: format!(
            "expected a step from 0 to {} (or -1), found {v}",
            len as i64 - 1
        ),
    }))
}

#[wasm_bindgen]
impl History {
    /// The steps of a broker dump (JSON lines or kafka-dump-log output).
    #[wasm_bindgen(js_name = fromKafkaRecords)]
    pub fn from_kafka_records(text: JsValue, options: JsValue) -> Result<History, JsValue> {
        let text = kafka_text(&text)?;
        let options: LoadOptions = decode_opt(&options, "options")?.unwrap_or_default();
        Ok(History {
            inner: Core::from_kafka_records(&text, &options).map_err(error)?,
        })
    }

    /// How many steps.
    #[wasm_bindgen(getter, js_name = stepCount)]
    pub fn step_count(&self) -> usize {
        self.inner.steps().len()
    }

    /// Every step: its records and what it changed per group.
    pub fn steps(&self) -> JsResult {
        output(self.inner.steps())
    }

    /// What was read, skipped and inferred (as `Coordinator.fromKafkaRecords`).
    pub fn report(&self) -> JsResult {
        output(&self.inner.report)
    }

    /// `describe(step, groupIds?)`: the groups after `step` (-1: before the first).
    pub fn describe(&self, index: f64, group_ids: JsValue) -> JsResult {
        let at = step(index, self.inner.steps().len())?;
        let ids = decode_opt::<GroupIds>(&group_ids, "describe")?
            .map(|g| g.0)
            .unwrap_or_default();
        match self.inner.describe(at, &ids) {
            Some(d) => output(&d),
            None => Err(error(InputError::rejected("no such step"))),
        }
    }

    /// The coordinator's snapshot after `step` (the playground's lanes).
    pub fn snapshot(&self, index: f64) -> JsResult {
        let at = step(index, self.inner.steps().len())?;
        match self.inner.coordinator_at(at) {
            Some(c) => output(&c.snapshot()),
            None => Err(error(InputError::rejected("no such step"))),
        }
    }

    /// A copy of the coordinator after `step`, to send requests to.
    pub fn coordinator(&self, index: f64) -> Result<super::Coordinator, JsValue> {
        let at = step(index, self.inner.steps().len())?;
        match self.inner.coordinator_at(at) {
            Some(c) => Ok(super::Coordinator::from_core(c)),
            None => Err(error(InputError::rejected("no such step"))),
        }
    }

    /// What the playground draws after `step`: the group (default: the dump's first)
    /// as a Simulation snapshot, its members grouped by process.
    #[wasm_bindgen(js_name = boardSnapshot)]
    pub fn board_snapshot(&self, index: f64, group_id: Option<String>) -> JsResult {
        let at = step(index, self.inner.steps().len())?;
        let group = group_id
            .or_else(|| self.inner.report.groups.first().cloned())
            .unwrap_or_default();
        match self.inner.coordinator_at(at) {
            Some(c) => output(&crate::sim::dump::dump_snapshot(&c, &group)),
            None => Err(error(InputError::rejected("no such step"))),
        }
    }
}
