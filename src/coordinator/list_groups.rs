//! ListGroups: every group, streams and consumer, with Kafka's state strings.

use super::Coordinator;
use crate::protocol::{ListGroupsRequest, ListGroupsResponse, ListedGroup};

fn matches(filter: &[String], value: &str) -> bool {
    let norm = |s: &str| s.to_ascii_lowercase().replace('_', "");
    filter.is_empty() || filter.iter().any(|f| norm(f) == norm(value))
}

impl Coordinator {
    pub fn list_groups(&self, req: &ListGroupsRequest) -> ListGroupsResponse {
        let mut groups: Vec<ListedGroup> = self
            .groups
            .values()
            .map(|g| ListedGroup {
                group_id: g.group_id.clone(),
                protocol_type: "streams".into(),
                group_state: g.state().name().into(),
                group_type: "streams".into(),
            })
            .chain(self.consumer_groups.values().map(|g| ListedGroup {
                group_id: g.group_id.clone(),
                protocol_type: "consumer".into(),
                group_state: g.state().into(),
                group_type: "consumer".into(),
            }))
            .filter(|g| {
                matches(&req.types_filter, &g.group_type)
                    && matches(&req.states_filter, &g.group_state)
            })
            .collect();
        groups.sort_by(|a, b| a.group_id.cmp(&b.group_id));
        ListGroupsResponse {
            throttle_time_ms: 0,
            error_code: 0,
            groups,
        }
    }
}
