//! The JavaScript binding of the simulation (API.md `Simulation`).

use crate::protocol::json::InputError;
use crate::sim::scenario::{Action, NewTopic, ProcessSpec, RestartChanges, Scenario};
use crate::sim::{presets, Simulation as CoreSimulation};
use crate::wasm::convert::{decode, decode_ids, decode_opt, error, output, JsResult};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Simulated Kafka Streams processes speaking the protocol to a coordinator.
#[wasm_bindgen]
pub struct Simulation {
    inner: CoreSimulation,
}

/// A refusal of the simulated world (an unknown process, ...).
fn err(e: String) -> JsValue {
    error(InputError::rejected(e))
}

fn int_arg(v: f64, what: &str) -> Result<i64, JsValue> {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e15 {
        Ok(v as i64)
    } else {
        Err(error(InputError::Decode {
            what: what.to_owned(),
            path: String::new(),
            message: format!("expected an integer, found {v}"),
        }))
    }
}

/// One entry of `Simulation.presets()`.
#[derive(Serialize)]
struct Preset<'a> {
    name: &'a str,
    title: &'a str,
    description: &'a str,
    scenario: &'a Scenario,
}

#[wasm_bindgen]
impl Simulation {
    /// `config`: the coordinator's config (as `new Coordinator(config)`).
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue) -> Result<Simulation, JsValue> {
        let config = super::coordinator::config(&config)?;
        Ok(Simulation {
            inner: CoreSimulation::new(config),
        })
    }

    /// A simulation that plays `scenario` (configs plus timed actions).
    #[wasm_bindgen(js_name = fromScenario)]
    pub fn from_scenario(scenario: JsValue) -> Result<Simulation, JsValue> {
        let s: Scenario = decode(&scenario, "scenario")?;
        Ok(Simulation {
            inner: CoreSimulation::from_scenario(s),
        })
    }

    /// The preset scenarios: `[{ name, title, description, scenario }]`.
    pub fn presets() -> JsResult {
        let all: Vec<(&str, Scenario)> = presets::PRESETS
            .iter()
            .filter_map(|(name, _)| Some((*name, presets::preset(name)?.ok()?)))
            .collect();
        let out: Vec<Preset<'_>> = all
            .iter()
            .map(|(name, s)| Preset {
                name,
                title: &s.title,
                description: &s.description,
                scenario: s,
            })
            .collect();
        output(&out)
    }

    /// Checks a scenario without running it; throws the decoding error.
    #[wasm_bindgen(js_name = checkScenario)]
    pub fn check_scenario(scenario: JsValue) -> JsResult {
        let s: Scenario = decode(&scenario, "scenario")?;
        output(&s)
    }

    #[wasm_bindgen(js_name = addProcess)]
    pub fn add_process(&mut self, spec: JsValue) -> Result<String, JsValue> {
        let spec: ProcessSpec = decode_opt(&spec, "process")?.unwrap_or_default();
        self.inner.add_process(spec).map_err(err)
    }

    #[wasm_bindgen(js_name = stopProcess)]
    pub fn stop_process(&mut self, id: String) -> JsResult {
        output(
            &self
                .inner
                .act(Action::StopProcess { process_id: id })
                .map_err(err)?,
        )
    }

    #[wasm_bindgen(js_name = crashProcess)]
    pub fn crash_process(&mut self, id: String) -> JsResult {
        output(
            &self
                .inner
                .act(Action::CrashProcess { process_id: id })
                .map_err(err)?,
        )
    }

    #[wasm_bindgen(js_name = restartProcess)]
    pub fn restart_process(&mut self, id: String, changes: JsValue) -> JsResult {
        let changes: Option<RestartChanges> = decode_opt(&changes, "changes")?;
        output(&self.inner.restart_process(&id, changes).map_err(err)?)
    }

    /// `[{ name, numPartitions }]`, recorded into the scenario.
    #[wasm_bindgen(js_name = createTopics)]
    pub fn create_topics(&mut self, topics: JsValue) -> JsResult {
        let topics: Vec<NewTopic> = decode(&topics, "topics")?;
        output(
            &self
                .inner
                .act(Action::CreateTopics { topics })
                .map_err(err)?,
        )
    }

    #[wasm_bindgen(js_name = deleteTopics)]
    pub fn delete_topics(&mut self, names: JsValue) -> JsResult {
        let names = decode_ids::<crate::protocol::Names>(&names, "names")?.0;
        output(
            &self
                .inner
                .act(Action::DeleteTopics { names })
                .map_err(err)?,
        )
    }

    #[wasm_bindgen(js_name = setAssignor)]
    pub fn set_assignor(&mut self, name: String) -> JsResult {
        if crate::assignor::by_name(&name).is_none() {
            return Err(error(InputError::Invalid {
                what: "assignor".to_owned(),
                path: String::new(),
                message: crate::config::unknown_assignor(&name),
            }));
        }
        output(
            &self
                .inner
                .act(Action::SetAssignor { assignor: name })
                .map_err(err)?,
        )
    }

    #[wasm_bindgen(js_name = setStandbyReplicas)]
    pub fn set_standby_replicas(&mut self, n: f64) -> JsResult {
        let n = int_arg(n, "numStandbyReplicas")?;
        if !(0..=16).contains(&n) {
            return Err(error(InputError::Invalid {
                what: "numStandbyReplicas".to_owned(),
                path: String::new(),
                message: format!("{n} is out of range 0..=16"),
            }));
        }
        output(
            &self
                .inner
                .act(Action::SetStandbyReplicas {
                    num_standby_replicas: n as u32,
                })
                .map_err(err)?,
        )
    }

    /// Sends a hand-made StreamsGroupHeartbeatRequest now (recorded); returns the response.
    #[wasm_bindgen(js_name = sendHeartbeat)]
    pub fn send_heartbeat(&mut self, request: JsValue) -> JsResult {
        let req = decode(&request, "heartbeat")?;
        let (resp, _) = self.inner.send_heartbeat(req);
        output(&resp)
    }

    /// Runs everything due in the next `ms` of simulated time; returns its events.
    pub fn step(&mut self, ms: f64) -> JsResult {
        let ms = int_arg(ms, "ms")?;
        output(&self.inner.step(ms).map_err(err)?)
    }

    /// Runs the next moment at which anything is due (at most `maxMs` ahead, default an hour).
    #[wasm_bindgen(js_name = stepNext)]
    pub fn step_next(&mut self, max_ms: JsValue) -> JsResult {
        let max = match max_ms.as_f64() {
            Some(v) => int_arg(v, "maxMs")?,
            None if max_ms.is_undefined() || max_ms.is_null() => 3_600_000,
            None => {
                return Err(error(InputError::Decode {
                    what: "maxMs".to_owned(),
                    path: String::new(),
                    message: "expected a number".to_owned(),
                }))
            }
        };
        output(&self.inner.step_next(max))
    }

    #[wasm_bindgen(js_name = runUntilStable)]
    pub fn run_until_stable(&mut self, max_ms: f64) -> JsResult {
        let ms = int_arg(max_ms, "maxMs")?;
        output(&self.inner.run_until_stable(ms).map_err(err)?)
    }

    /// When something is next due (ms), or null.
    #[wasm_bindgen(js_name = nextDue)]
    pub fn next_due(&self) -> Option<f64> {
        self.inner.next_due().map(|t| t as f64)
    }

    /// The coordinator underneath, as of now: a copy rebuilt from its records (a
    /// fail-over copy, which answers every call exactly as the simulation's own would).
    /// Query it freely; change the simulated world through the Simulation's calls
    /// (`sendHeartbeat`, `createTopics`, ...) so that the scenario records them.
    #[wasm_bindgen(getter)]
    pub fn coordinator(&self) -> Result<crate::wasm::coordinator::Coordinator, JsValue> {
        let c = &self.inner.coordinator;
        let copy =
            crate::coordinator::Coordinator::from_records(c.config.clone(), c.records().to_vec())
                .map_err(error)?;
        Ok(crate::wasm::coordinator::Coordinator::from_core(copy))
    }

    pub fn now(&self) -> f64 {
        self.inner.now() as f64
    }

    #[wasm_bindgen(js_name = isStable)]
    pub fn is_stable(&self) -> bool {
        self.inner.is_stable()
    }

    pub fn snapshot(&self) -> JsResult {
        output(&self.inner.snapshot())
    }

    /// The scenario as recorded so far (replays this simulation exactly).
    pub fn scenario(&self) -> JsResult {
        output(self.inner.scenario())
    }

    /// The snapshot without `coordinator` (null) and the processes' `stateStore` (empty)
    /// (internal: what the playground draws at every step of a big group).
    #[wasm_bindgen(js_name = __view)]
    pub fn view(&self) -> JsResult {
        output(&self.inner.view())
    }

    /// `[groupEpoch, topologyEpoch]` of the simulated group, -1 where there is none
    /// (internal: the playground's timeline markers, without a whole snapshot per step).
    #[wasm_bindgen(js_name = __epochs)]
    pub fn epochs(&self) -> Vec<i32> {
        let (group, topology) = self.inner.group_epochs();
        vec![group.unwrap_or(-1), topology.unwrap_or(-1)]
    }

    /// An independent copy at this moment (internal: the playground keeps a few as
    /// checkpoints, so that showing an earlier step replays from the nearest one
    /// instead of from the start).
    #[wasm_bindgen(js_name = __fork)]
    pub fn fork(&self) -> Simulation {
        Simulation {
            inner: self.inner.clone(),
        }
    }
}
