//! The simulation (API.md `Simulation`): a coordinator plus simulated Kafka Streams
//! processes that speak the protocol to it as real clients do, driven by a simulated
//! clock. Deterministic: the same scenario gives the same event log, so the page's
//! back/forward and scrubbing replay from the start instead of undoing state.
//!
//! Within one moment of simulated time the order is fixed: the coordinator's timers
//! fire, then (repeatedly, until nothing is left at that moment) members finish their
//! reconciliations and send their due heartbeats in process order, then the scenario's
//! actions of that moment run. An action done by hand at `now` is recorded with
//! `atMs = now`, and a replay puts it at the same place in that order.

pub mod coord;
pub mod dump;
pub mod event;
pub mod member;
pub mod presets;
pub mod process;
pub mod scenario;
pub mod snapshot;

use crate::config::CoordinatorConfig;
use crate::coordinator::group_config::GroupConfigUpdate;
use crate::coordinator::{Coordinator, RequestContext};
use crate::protocol::{ErrorCode, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};
use event::{Event, SimKind};
use member::Outcome;
use process::{Process, ProcessState};
use scenario::{Action, ProcessSpec, RestartChanges, Scenario, TimedAction, MAX_TIME_MS};

/// Most processes one simulation holds (keeps a runaway scenario from eating the page).
pub const MAX_PROCESSES: usize = 256;
/// Events one `step` or `runUntilStable` call returns at most: a call that would
/// produce more (a year at a 1 ms heartbeat interval) stops early, its clock showing
/// how far it got, instead of freezing the page and filling its memory.
pub const MAX_EVENTS_PER_CALL: usize = 20_000;
/// Rounds of work at one moment before the simulation gives up on that moment (a guard
/// against a loop; real scenarios need a handful).
const MAX_ROUNDS_PER_MOMENT: usize = 64;

/// What a scenario action did: the detail of its event, and whether it failed.
struct ActionResult {
    detail: String,
    failed: bool,
}

impl ActionResult {
    fn done(detail: String) -> Self {
        ActionResult {
            detail,
            failed: false,
        }
    }

    fn failed(detail: String) -> Self {
        ActionResult {
            detail,
            failed: true,
        }
    }
}

/// Clone: the playground keeps a few copies as checkpoints to replay from (`__fork`).
#[derive(Clone)]
pub struct Simulation {
    pub coordinator: Coordinator,
    /// Configs plus every action, done or scheduled, sorted by time.
    scenario: Scenario,
    /// Actions before this index have run.
    next_action: usize,
    processes: Vec<Process>,
    now: i64,
    events: u64,
    /// Problems found before the first moment (a scenario topic that could not be
    /// created), logged with the first moment's events.
    deferred: Vec<Event>,
    /// Bytes of the scenario's JSON text: an action that would take it past what
    /// `fromScenario` reads is refused, so `scenario()` always replays.
    scenario_bytes: usize,
}

/// Deterministic process names: the first free one of A, B, ... Z, then P27, P28, ...
/// from the `start`-th on (the page names the process it adds the same way).
pub fn next_process_id(start: usize, taken: impl Fn(&str) -> bool) -> String {
    let mut n = start;
    loop {
        let id = if n < 26 {
            char::from(b'A' + n as u8).to_string()
        } else {
            format!("P{}", n + 1)
        };
        if !taken(&id) {
            return id;
        }
        n += 1;
    }
}

impl Simulation {
    pub fn new(config: CoordinatorConfig) -> Simulation {
        let scenario = Scenario {
            config,
            ..Scenario::default()
        };
        Simulation::from_scenario(scenario)
    }

    /// A simulation that will play `scenario` (its topics exist from the start).
    pub fn from_scenario(mut scenario: Scenario) -> Simulation {
        // Stable: actions at the same time keep their order.
        scenario.actions.sort_by_key(|a| a.at_ms);
        let mut coordinator = Coordinator::new(scenario.config.clone());
        let deferred = coord::create_topics(&mut coordinator, &scenario.topics)
            .into_iter()
            .map(|e| {
                Event::new(
                    0,
                    SimKind::ActionFailed,
                    format!("scenario topic not created: {e}"),
                )
            })
            .collect();
        let scenario_bytes = serde_json::to_string(&scenario).map_or(0, |t| t.len());
        Simulation {
            coordinator,
            scenario,
            next_action: 0,
            processes: Vec::new(),
            now: 0,
            events: 0,
            deferred,
            scenario_bytes,
        }
    }

    pub fn now(&self) -> i64 {
        self.now
    }

    pub fn group_id(&self) -> &str {
        &self.scenario.group_id
    }

    /// The simulated group's epoch and topology epoch (None where there is no group or
    /// no topology yet): what the page's timeline marks per step, without a snapshot.
    pub fn group_epochs(&self) -> (Option<i32>, Option<i32>) {
        match self.coordinator.groups.get(&self.scenario.group_id) {
            Some(g) => (Some(g.group_epoch), g.topology_epoch()),
            None => (None, None),
        }
    }

    /// The scenario as recorded so far: what replays this simulation exactly.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn processes(&self) -> &[Process] {
        &self.processes
    }

    pub fn process(&self, id: &str) -> Option<&Process> {
        self.processes.iter().find(|p| p.id == id)
    }

    /// Does `action` now (recording it into the scenario); an action that names an
    /// unknown process or is otherwise impossible is an error and changes nothing.
    pub fn act(&mut self, action: Action) -> Result<Vec<Event>, String> {
        self.check(&action)?;
        let timed = TimedAction {
            at_ms: self.now,
            action,
        };
        // The action's JSON and its comma in the list of actions.
        let bytes = serde_json::to_string(&timed).map_or(0, |t| t.len()) + 1;
        let total = self.scenario_bytes.saturating_add(bytes);
        let max = crate::limits::MAX_INPUT_BYTES;
        if total > max {
            return Err(format!(
                "the recorded scenario would be {total} bytes of JSON; fromScenario reads at most {max} (README, Limits)"
            ));
        }
        self.scenario_bytes = total;
        self.scenario
            .actions
            .insert(self.next_action, timed.clone());
        self.next_action += 1;
        let mut out = Vec::new();
        self.apply(&timed, &mut out);
        Ok(out)
    }

    /// Like `act` with `addProcess`, returning the process id.
    pub fn add_process(&mut self, spec: ProcessSpec) -> Result<String, String> {
        let id = spec
            .process_id
            .clone()
            .unwrap_or_else(|| self.fresh_process_id());
        let spec = ProcessSpec {
            process_id: Some(id.clone()),
            ..spec
        };
        self.act(Action::AddProcess(spec))?;
        Ok(id)
    }

    fn fresh_process_id(&self) -> String {
        next_process_id(self.processes.len(), |id| self.process(id).is_some())
    }

    fn check(&self, action: &Action) -> Result<(), String> {
        let known = |id: &str| {
            if self.process(id).is_some() {
                Ok(())
            } else {
                Err(format!(
                    "unknown process {:?}",
                    crate::protocol::json::truncate(id, 60)
                ))
            }
        };
        match action {
            Action::AddProcess(spec) => {
                if self.processes.len() >= MAX_PROCESSES {
                    return Err(format!("at most {MAX_PROCESSES} processes"));
                }
                if let Some(id) = &spec.process_id {
                    if id.is_empty() {
                        return Err("processId: must not be empty".to_owned());
                    }
                    if self.process(id).is_some() {
                        return Err(format!(
                            "process {:?} already exists",
                            crate::protocol::json::truncate(id, 60)
                        ));
                    }
                }
                if spec.instance_id.as_deref() == Some("") {
                    return Err("instanceId: must not be empty".to_owned());
                }
                Ok(())
            }
            Action::StopProcess { process_id }
            | Action::CrashProcess { process_id }
            | Action::RestartProcess { process_id, .. } => known(process_id),
            _ => Ok(()),
        }
    }

    fn log(&mut self, mut e: Event, out: &mut Vec<Event>) {
        e.seq = self.events;
        self.events += 1;
        out.push(e);
    }

    /// Runs one action. A scheduled action that cannot run is logged as `actionFailed`.
    fn apply(&mut self, timed: &TimedAction, out: &mut Vec<Event>) {
        if let Err(msg) = self.check(&timed.action) {
            let mut e = Event::new(self.now, SimKind::ActionFailed, msg);
            e.action = Some(timed.clone());
            self.log(e, out);
            return;
        }
        let now = self.now;
        let ActionResult { detail, failed } = match &timed.action {
            Action::AddProcess(spec) => ActionResult::done(self.spawn_process(spec, now)),
            Action::StopProcess { process_id } => {
                if let Some(p) = self.processes.iter_mut().find(|p| &p.id == process_id) {
                    p.stop(now);
                }
                ActionResult::done(format!("process {process_id} shuts down cleanly"))
            }
            Action::CrashProcess { process_id } => {
                if let Some(p) = self.processes.iter_mut().find(|p| &p.id == process_id) {
                    p.crash();
                }
                ActionResult::done(format!(
                    "process {process_id} crashes (silent until its session times out)"
                ))
            }
            Action::RestartProcess {
                process_id,
                changes,
            } => ActionResult::done(self.restart_now(process_id, changes.as_ref(), now)),
            Action::CreateTopics { topics } => self.create_topics_now(topics),
            Action::DeleteTopics { names } => self.delete_topics_now(names),
            Action::SetAssignor { assignor } => {
                let update = GroupConfigUpdate {
                    assignor: Some(assignor.clone()),
                    ..Default::default()
                };
                self.change_group_config(
                    &update,
                    format!("the group now uses the {assignor} assignor"),
                    "the assignor",
                )
            }
            Action::SetStandbyReplicas {
                num_standby_replicas,
            } => {
                let update = GroupConfigUpdate {
                    num_standby_replicas: Some(*num_standby_replicas),
                    ..Default::default()
                };
                self.change_group_config(
                    &update,
                    format!("num.standby.replicas = {num_standby_replicas}"),
                    "num.standby.replicas",
                )
            }
            Action::Heartbeat { request } => {
                let resp = self.send(request);
                let mut e = Event::new(now, SimKind::Heartbeat, describe_exchange(request, &resp));
                e.member_id = Some(request.member_id.clone());
                e.request = Some((**request).clone());
                e.response = Some(resp);
                let mut a = Event::new(now, SimKind::Action, "a hand-made heartbeat is sent");
                a.action = Some(timed.clone());
                self.log(a, out);
                self.log(e, out);
                return;
            }
        };
        let mut e = Event::new(
            now,
            if failed {
                SimKind::ActionFailed
            } else {
                SimKind::Action
            },
            detail,
        );
        if let Action::AddProcess(ProcessSpec {
            process_id: Some(id),
            ..
        })
        | Action::StopProcess { process_id: id }
        | Action::CrashProcess { process_id: id }
        | Action::RestartProcess { process_id: id, .. } = &timed.action
        {
            e.process_id = Some(id.clone());
        }
        e.action = Some(timed.clone());
        self.log(e, out);
    }

    /// AddProcess: the process starts (its id given, or the next free one).
    fn spawn_process(&mut self, spec: &ProcessSpec, now: i64) -> String {
        let id = spec
            .process_id
            .clone()
            .unwrap_or_else(|| self.fresh_process_id());
        let p = Process::new(id.clone(), spec, &self.scenario.topology, now);
        let d = format!(
            "process {id} starts with {} thread(s) at topology epoch {}",
            p.threads, p.topology.epoch
        );
        self.processes.push(p);
        d
    }

    /// RestartProcess: the process restarts, perhaps redeployed with another topology.
    fn restart_now(
        &mut self,
        process_id: &str,
        changes: Option<&RestartChanges>,
        now: i64,
    ) -> String {
        let c = changes.cloned().unwrap_or_default();
        let client = self.scenario.client.clone();
        let Some(p) = self.processes.iter_mut().find(|p| p.id == process_id) else {
            return String::new();
        };
        p.restart(&c, now, &client);
        match c
            .process
            .topology_epoch
            .or(c.process.topology.as_ref().map(|t| t.epoch))
        {
            Some(e) => format!("process {process_id} is redeployed with topology epoch {e}"),
            None => format!("process {process_id} restarts"),
        }
    }

    fn create_topics_now(&mut self, topics: &[scenario::NewTopic]) -> ActionResult {
        let errors = coord::create_topics(&mut self.coordinator, topics);
        if !errors.is_empty() {
            return ActionResult::failed(format!("topic creation failed: {}", errors.join("; ")));
        }
        let names: Vec<String> = topics
            .iter()
            .map(|t| format!("{} ({} partitions)", t.name, t.num_partitions))
            .collect();
        ActionResult::done(format!("topics created: {}", names.join(", ")))
    }

    fn delete_topics_now(&mut self, names: &[String]) -> ActionResult {
        let errors = coord::delete_topics(&mut self.coordinator, names);
        if !errors.is_empty() {
            return ActionResult::failed(format!("topic deletion failed: {}", errors.join("; ")));
        }
        ActionResult::done(format!("topics deleted: {}", names.join(", ")))
    }

    /// SetAssignor / SetStandbyReplicas: `done` when the coordinator takes the update.
    fn change_group_config(
        &mut self,
        update: &GroupConfigUpdate,
        done: String,
        what: &str,
    ) -> ActionResult {
        match coord::set_group_config(&mut self.coordinator, update) {
            Ok(()) => ActionResult::done(done),
            Err(e) => ActionResult::failed(format!("{what} was not changed: {e}")),
        }
    }

    fn send(&mut self, req: &StreamsGroupHeartbeatRequest) -> StreamsGroupHeartbeatResponse {
        let ctx = RequestContext {
            now_ms: Some(self.now),
            client_id: req.process_id.clone(),
            ..Default::default()
        };
        self.coordinator.heartbeat(req, &ctx)
    }

    fn acceptable_lag(&self) -> i64 {
        self.coordinator.config.acceptable_recovery_lag
    }

    /// The next moment something is due: an action, a heartbeat, a reconciliation, a
    /// restart, a warm-up catching up.
    pub fn next_due(&self) -> Option<i64> {
        let lag = self.acceptable_lag();
        let a = self.scenario.actions.get(self.next_action).map(|a| a.at_ms);
        self.processes
            .iter()
            .filter_map(|p| p.next_due(&self.scenario.client, lag))
            .chain(a)
            .min()
            .map(|t| t.max(self.now))
    }

    /// Everything due at `t` (>= now).
    fn run_moment(&mut self, t: i64, out: &mut Vec<Event>) {
        for e in std::mem::take(&mut self.deferred) {
            self.log(e, out);
        }
        for ev in coord::advance_to(&mut self.coordinator, t) {
            let mut e = Event::of_coordinator(ev);
            if let Some(id) = &e.member_id {
                if let Some((p, m)) = self.find_member(id) {
                    e.process_id = Some(p);
                    e.thread = Some(m);
                }
            }
            self.log(e, out);
        }
        self.now = t;
        for _ in 0..MAX_ROUNDS_PER_MOMENT {
            let before = self.events;
            self.members_work(t, out);
            while let Some(a) = self.scenario.actions.get(self.next_action) {
                if a.at_ms > t {
                    break;
                }
                let a = a.clone();
                self.next_action += 1;
                self.apply(&a, out);
            }
            let busy = self.processes.iter().any(|p| {
                p.next_due(
                    &self.scenario.client,
                    self.coordinator.config.acceptable_recovery_lag,
                )
                .is_some_and(|d| d <= t)
            });
            if self.events == before && !busy {
                break;
            }
            if self.events == before {
                // Something due without any event (a silent restore step): run it once more.
                continue;
            }
        }
    }

    fn find_member(&self, member_id: &str) -> Option<(String, u32)> {
        self.processes.iter().find_map(|p| {
            p.members
                .iter()
                .find(|m| m.member_id == member_id)
                .map(|m| (p.id.clone(), m.thread))
        })
    }

    /// Restores state, finishes reconciliations, sends due heartbeats, in process order.
    fn members_work(&mut self, t: i64, out: &mut Vec<Event>) {
        let client = self.scenario.client.clone();
        let lag = self.acceptable_lag();
        for pi in 0..self.processes.len() {
            let Some(p) = self.processes.get_mut(pi) else {
                continue;
            };
            if p.maybe_rejoin(t) {
                let mut e = Event::new(
                    t,
                    SimKind::Restarted,
                    format!(
                        "process {} starts again at topology epoch {}",
                        p.id, p.topology.epoch
                    ),
                );
                e.process_id = Some(p.id.clone());
                self.log(e, out);
            }
            let caught_up = self
                .processes
                .get_mut(pi)
                .map(|p| p.restore_until(t, &client, lag))
                .unwrap_or_default();
            for (mi, task) in caught_up {
                let Some(p) = self.processes.get_mut(pi) else {
                    continue;
                };
                let pid = p.id.clone();
                if let Some(m) = p.members.get_mut(mi) {
                    m.offsets_due = true;
                    m.next_heartbeat_ms = Some(t);
                    let e = Event::new(
                        t,
                        SimKind::CaughtUp,
                        format!("warm-up {task} is caught up (lag within acceptable.recovery.lag)"),
                    )
                    .of_member(&pid, &m.member_id, m.thread);
                    self.log(e, out);
                }
            }
            let members = self.processes.get(pi).map_or(0, |p| p.members.len());
            for mi in 0..members {
                self.member_work(pi, mi, t, &client, out);
            }
        }
    }

    fn member_work(
        &mut self,
        pi: usize,
        mi: usize,
        t: i64,
        client: &scenario::ClientConfig,
        out: &mut Vec<Event>,
    ) {
        let Some(p) = self.processes.get_mut(pi) else {
            return;
        };
        let pid = p.id.clone();
        let Some(m) = p.members.get_mut(mi) else {
            return;
        };
        if let Some(done) = m.finish_reconciliation(t) {
            let mut words = Vec::new();
            if !done.revoking.is_empty() {
                words.push(format!("revoked {}", tasks_words(&done.revoking)));
            }
            words.push(format!("now runs {}", tasks_words(&m.owned)));
            let e = Event::new(t, SimKind::Reconciled, words.join("; ")).of_member(
                &pid,
                &m.member_id,
                m.thread,
            );
            self.log(e, out);
        }
        let Some(p) = self.processes.get(pi) else {
            return;
        };
        let Some(m) = p.members.get(mi) else {
            return;
        };
        if !m.is_alive() || m.next_heartbeat_ms.is_none_or(|h| h > t) {
            return;
        }
        let mut req = m.request(
            &p.base_request(&self.scenario.group_id),
            client.rebalance_timeout_ms,
        );
        let offsets_due = m.offsets_due
            || m.offsets_reported_ms
                .is_none_or(|r| t.saturating_sub(r) >= m.task_offset_interval_ms);
        if offsets_due && req.member_epoch >= 0 {
            let (offs, ends) = p.task_offsets(mi, client);
            req.task_offsets = Some(offs);
            req.task_end_offsets = Some(ends);
        }
        let resp = self.send(&req);
        let Some(p) = self.processes.get_mut(pi) else {
            return;
        };
        let Some(m) = p.members.get_mut(mi) else {
            return;
        };
        m.sent_request(&req);
        if req.task_offsets.is_some() {
            m.offsets_reported_ms = Some(t);
        }
        let outcome = m.handle(
            &resp,
            t,
            client.revocation_delay_ms,
            client.assignment_delay_ms,
        );
        let mid = m.member_id.clone();
        let thread = m.thread;
        let mut e = Event::new(t, SimKind::Heartbeat, describe_exchange(&req, &resp))
            .of_member(&pid, &mid, thread);
        e.request = Some(req);
        e.response = Some(resp);
        self.log(e, out);
        if outcome == Outcome::Fatal {
            let e = Event::new(
                t,
                SimKind::Fatal,
                "the member stops: the error is fatal for a Kafka Streams client",
            )
            .of_member(&pid, &mid, thread);
            self.log(e, out);
        }
    }

    /// Runs everything due up to and including `now + ms`; the clock ends at `now + ms`.
    pub fn step(&mut self, ms: i64) -> Result<Vec<Event>, String> {
        if !(0..=MAX_TIME_MS).contains(&ms) {
            return Err(format!("ms: {ms} is out of range 0..={MAX_TIME_MS}"));
        }
        let end = self.now.saturating_add(ms);
        if end > MAX_TIME_MS {
            // The clock stays where a scenario's times may be: what it records replays.
            return Err(format!(
                "ms: {ms} would move the simulated clock to {end}, past {MAX_TIME_MS} (a year), the latest time a scenario holds"
            ));
        }
        let mut out = Vec::new();
        while let Some(t) = self.next_due() {
            if t > end {
                break;
            }
            self.run_moment(t, &mut out);
            if self.stuck_at(t) || out.len() >= MAX_EVENTS_PER_CALL {
                // Stops early: `now()` tells how far it got.
                return Ok(out);
            }
        }
        if end > self.now {
            self.run_moment_quiet(end, &mut out);
        }
        Ok(out)
    }

    /// Still something due at `t` after running `t` to quiescence: a guard against
    /// looping forever on a moment that cannot make progress.
    fn stuck_at(&self, t: i64) -> bool {
        self.next_due().is_some_and(|d| d <= t)
    }

    /// Moves the clock to `t` (coordinator timers included) without member work.
    fn run_moment_quiet(&mut self, t: i64, out: &mut Vec<Event>) {
        let client = self.scenario.client.clone();
        let lag = self.acceptable_lag();
        let due = self.next_due();
        if due.is_some_and(|d| d <= t) {
            self.run_moment(t, out);
            return;
        }
        let _ = (client, lag);
        for ev in coord::advance_to(&mut self.coordinator, t) {
            self.log(Event::of_coordinator(ev), out);
        }
        self.now = t;
    }

    /// Runs the next moment at which anything is due (the page's one step), at most
    /// `max_ms` ahead; returns its events (empty when nothing is due that soon).
    pub fn step_next(&mut self, max_ms: i64) -> Vec<Event> {
        let mut out = Vec::new();
        let limit = self
            .now
            .saturating_add(max_ms.clamp(0, MAX_TIME_MS))
            .min(MAX_TIME_MS);
        match self.next_due() {
            Some(t) if t <= limit => self.run_moment(t, &mut out),
            _ => self.run_moment_quiet(limit, &mut out),
        }
        out
    }

    /// Is every group Stable and every simulated member done reconciling?
    pub fn is_stable(&self) -> bool {
        let group_stable = coord::describe(&self.coordinator, &self.scenario.group_id)
            .is_some_and(|g| g.group_state == "Stable");
        group_stable
            && self.processes.iter().all(|p| {
                p.members.iter().filter(|m| m.is_alive()).all(|m| {
                    m.pending.is_none()
                        && m.leaving.is_none()
                        && m.reported.as_ref() == Some(&m.owned)
                })
            })
            && self
                .processes
                .iter()
                .all(|p| p.state != ProcessState::Restarting)
    }

    /// Steps moment by moment until stable (checked after each moment) or `max_ms` passed.
    pub fn run_until_stable(&mut self, max_ms: i64) -> Result<Vec<Event>, String> {
        if !(0..=MAX_TIME_MS).contains(&max_ms) {
            return Err(format!("maxMs: {max_ms} is out of range 0..={MAX_TIME_MS}"));
        }
        // Not past the latest time a scenario holds (see `step`).
        let end = self.now.saturating_add(max_ms).min(MAX_TIME_MS);
        let mut out = Vec::new();
        loop {
            match self.next_due() {
                Some(t) if t <= end => {
                    self.run_moment(t, &mut out);
                    if self.stuck_at(t) || out.len() >= MAX_EVENTS_PER_CALL {
                        break;
                    }
                }
                _ => {
                    self.run_moment_quiet(end, &mut out);
                    break;
                }
            }
            if self.is_stable() {
                break;
            }
        }
        Ok(out)
    }

    /// Sends a hand-made heartbeat now (recorded in the scenario) and returns its answer.
    pub fn send_heartbeat(
        &mut self,
        request: StreamsGroupHeartbeatRequest,
    ) -> (StreamsGroupHeartbeatResponse, Vec<Event>) {
        let events = self
            .act(Action::Heartbeat {
                request: Box::new(request),
            })
            .unwrap_or_default();
        let resp = events
            .iter()
            .find_map(|e| e.response.clone())
            .unwrap_or_else(|| {
                StreamsGroupHeartbeatResponse::error(
                    &crate::protocol::ProtocolError::new(
                        ErrorCode::UNKNOWN_SERVER_ERROR,
                        "not sent",
                    ),
                    None,
                    0,
                )
            });
        (resp, events)
    }

    pub fn restart_process(
        &mut self,
        id: &str,
        changes: Option<RestartChanges>,
    ) -> Result<Vec<Event>, String> {
        self.act(Action::RestartProcess {
            process_id: id.to_owned(),
            changes,
        })
    }
}

/// "A-1 heartbeat epoch 3 -> epoch 4, 3 active" style summary of one exchange.
fn describe_exchange(
    req: &StreamsGroupHeartbeatRequest,
    resp: &StreamsGroupHeartbeatResponse,
) -> String {
    let what = match req.member_epoch {
        0 => format!(
            "joins (topology epoch {})",
            req.topology.as_ref().map_or(-1, |t| t.epoch)
        ),
        -1 => "leaves the group (epoch -1)".to_owned(),
        -2 => "leaves temporarily as a static member (epoch -2)".to_owned(),
        e => format!("heartbeat at epoch {e}"),
    };
    if resp.error_code != 0 {
        let name = ErrorCode::from_code(resp.error_code).map_or("UNKNOWN", |c| c.name());
        return format!(
            "{what} -> {name}: {}",
            resp.error_message.clone().unwrap_or_default()
        );
    }
    let mut s = format!("{what} -> epoch {}", resp.member_epoch);
    if let (Some(a), Some(sb), Some(w)) =
        (&resp.active_tasks, &resp.standby_tasks, &resp.warmup_tasks)
    {
        let n =
            |l: &Vec<crate::protocol::TaskIds>| l.iter().map(|t| t.partitions.len()).sum::<usize>();
        s.push_str(&format!(
            ", assigned {} active / {} standby / {} warm-up",
            n(a),
            n(sb),
            n(w)
        ));
    }
    if let Some(st) = &resp.status {
        for x in st {
            let name = crate::protocol::StatusCode::from_code(x.status_code)
                .map_or("UNKNOWN_STATUS", |c| c.name());
            s.push_str(&format!(", {name}"));
        }
    }
    s
}

/// "active 0_1 0_2, standby 1_0" (or "nothing").
pub fn tasks_words(t: &member::Tasks) -> String {
    let mut parts = Vec::new();
    for (set, role) in [
        (&t.active, "active"),
        (&t.standby, "standby"),
        (&t.warmup, "warm-up"),
    ] {
        if !set.is_empty() {
            let ids: Vec<String> = set.tasks().map(|t| t.to_string()).collect();
            parts.push(format!("{role} {}", ids.join(" ")));
        }
    }
    if parts.is_empty() {
        "nothing".to_owned()
    } else {
        parts.join(", ")
    }
}
