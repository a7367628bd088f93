//! A minimal deterministic assignor: a stand-in behind the real interface.
//! Keeps current active owners while under quota, gives the rest to the least-loaded
//! up-to-date member. No standbys, no warm-ups.

use super::{AssignmentConfig, GroupAssignment, GroupSpec, MemberAssignment, TaskAssignor};

pub struct SimpleAssignor {
    pub name: &'static str,
}

impl TaskAssignor for SimpleAssignor {
    fn name(&self) -> &'static str {
        self.name
    }

    fn assign(&self, spec: &GroupSpec, _config: &AssignmentConfig) -> GroupAssignment {
        let mut out = GroupAssignment::default();
        for m in &spec.members {
            out.members
                .insert(m.member_id.clone(), MemberAssignment::default());
        }
        let total: u64 = spec.subtopologies.iter().map(|s| s.num_tasks as u64).sum();
        let eligible: Vec<&str> = spec
            .members
            .iter()
            .filter(|m| m.topology_epoch == spec.topology_epoch)
            .map(|m| m.member_id.as_str())
            .collect();
        if spec.members.is_empty() {
            return out;
        }
        let quota = total.div_ceil(spec.members.len().max(1) as u64) as usize;
        let mut unassigned = Vec::new();
        for s in &spec.subtopologies {
            for p in 0..s.num_tasks as i32 {
                let owner = spec
                    .members
                    .iter()
                    .find(|m| m.active.contains(&s.id, p))
                    .map(|m| m.member_id.as_str());
                match owner {
                    Some(o) if out.members[o].active.len() < quota => {
                        if let Some(a) = out.members.get_mut(o) {
                            a.active.insert(&s.id, p);
                        }
                    }
                    _ => unassigned.push((s.id.as_str(), p)),
                }
            }
        }
        for (s, p) in unassigned {
            let least = eligible
                .iter()
                .min_by_key(|id| (out.members[**id].active.len(), **id))
                .copied();
            if let Some(id) = least {
                if let Some(a) = out.members.get_mut(id) {
                    a.active.insert(s, p);
                }
            }
        }
        out
    }
}
