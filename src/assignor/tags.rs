//! Client-tag awareness for standbys (Kafka Streams' ClientTagAwareStandbyTaskAssignor):
//! the processes holding a task should differ in every tag value, where possible.
//!
//! Every tag key that any member reports is used (the group has no tag list of its
//! own). A tag key stops constraining a task once all of its values are in use by the
//! task's holders; a process that lacks a key has the "missing" value for it.

use super::index::{Index, NONE};
use super::placement::Placement;

/// Every tag key any member reports, sorted; `None` when there is none.
pub(crate) fn tag_keys<'a>(ix: &Index<'a>) -> Option<Vec<&'a str>> {
    let mut keys: Vec<&str> = ix
        .members
        .iter()
        .flat_map(|m| m.client_tags.keys().map(String::as_str))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    (!keys.is_empty()).then_some(keys)
}

pub(crate) struct TagPlacement {
    /// Per process, per key: the value's index, or NONE when the key is missing.
    values: Vec<Vec<u32>>,
    /// Per key: the number of distinct values (missing included) over all processes.
    distinct: Vec<usize>,
}

impl TagPlacement {
    /// `None` when no member reports any client tag.
    pub fn new(ix: &Index<'_>) -> Option<Self> {
        let keys = tag_keys(ix)?;
        let mut dictionaries: Vec<Vec<&str>> = vec![Vec::new(); keys.len()];
        // A process's tags are those of its first member (all of them report the same).
        let first: Vec<Option<usize>> = ix
            .all_process_members()
            .map(|ms| ms.first().map(|&m| m as usize))
            .collect();
        for m in first.iter().flatten() {
            for (k, key) in keys.iter().enumerate() {
                if let Some(v) = ix.members[*m].client_tags.get(*key) {
                    dictionaries[k].push(v.as_str());
                }
            }
        }
        for d in &mut dictionaries {
            d.sort_unstable();
            d.dedup();
        }
        let mut distinct: Vec<usize> = dictionaries.iter().map(Vec::len).collect();
        let mut values = Vec::with_capacity(first.len());
        for m in &first {
            let mut row = vec![NONE; keys.len()];
            if let Some(m) = m {
                for (k, key) in keys.iter().enumerate() {
                    if let Some(v) = ix.members[*m].client_tags.get(*key) {
                        row[k] = dictionaries[k].binary_search(&v.as_str()).unwrap_or(0) as u32;
                    }
                }
            }
            values.push(row);
        }
        for (k, d) in distinct.iter_mut().enumerate() {
            if values.iter().any(|row| row[k] == NONE) {
                *d += 1;
            }
        }
        Some(TagPlacement { values, distinct })
    }

    /// How many still-constraining tag keys process `p` would repeat for task `t`.
    pub fn violations(&self, placement: &Placement<'_, '_>, t: u32, p: usize) -> u32 {
        let Some(row) = self.values.get(p) else {
            return 0;
        };
        let holders: Vec<usize> = placement.holder_processes(t).collect();
        let mut count = 0;
        for (k, &v) in row.iter().enumerate() {
            let mut used: Vec<u32> = holders
                .iter()
                .filter_map(|&h| self.values.get(h).map(|r| r[k]))
                .collect();
            used.sort_unstable();
            used.dedup();
            let constrains = used.len() < self.distinct[k];
            if constrains && used.contains(&v) {
                count += 1;
            }
        }
        count
    }
}
