//! The streams group coordinator: heartbeats, epochs, reconciliation, topology epochs,
//! describe, records.

pub mod validation;

use crate::cluster::Cluster;
use crate::config::CoordinatorConfig;
use crate::from_json_struct;
use crate::protocol::{ProtocolError, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

/// Who sent a request, and when (API.md: `context`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RequestContext {
    pub principal: Option<String>,
    pub client_id: Option<String>,
    pub client_host: Option<String>,
    pub now_ms: Option<i64>,
}

from_json_struct!(RequestContext, "a context object", "context objects", |f| {
    let now_ms: Option<i64> = f.or("nowMs", None)?;
    Ok(RequestContext {
        principal: f.or("principal", None)?,
        client_id: f.or("clientId", None)?,
        client_host: f.or("clientHost", None)?,
        now_ms,
    })
});

pub struct Coordinator {
    pub config: CoordinatorConfig,
    pub cluster: Cluster,
    now_ms: i64,
}

impl Coordinator {
    pub fn new(config: CoordinatorConfig) -> Self {
        let cluster = Cluster::new(config.default_replication_factor);
        Coordinator {
            config,
            cluster,
            now_ms: 0,
        }
    }

    pub fn now(&self) -> i64 {
        self.now_ms
    }

    pub fn heartbeat(
        &mut self,
        req: &StreamsGroupHeartbeatRequest,
        _ctx: &RequestContext,
    ) -> StreamsGroupHeartbeatResponse {
        if let Err(e) = validation::validate_heartbeat(req) {
            return self.error_response(req, &e);
        }
        // The group logic lands with the coordinator core.
        self.error_response(
            req,
            &ProtocolError::new(
                crate::protocol::ErrorCode::COORDINATOR_NOT_AVAILABLE,
                "The coordinator core is not implemented yet.",
            ),
        )
    }

    fn error_response(
        &self,
        req: &StreamsGroupHeartbeatRequest,
        e: &ProtocolError,
    ) -> StreamsGroupHeartbeatResponse {
        let mut r =
            StreamsGroupHeartbeatResponse::error(e, Some(req.member_id.clone()), req.member_epoch);
        r.heartbeat_interval_ms = self.config.heartbeat_interval_ms;
        r.acceptable_recovery_lag = self.config.acceptable_recovery_lag;
        r.task_offset_interval_ms = self.config.task_offset_interval_ms;
        r
    }
}
