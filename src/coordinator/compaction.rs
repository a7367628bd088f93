//! Log compaction, as Kafka compacts `__consumer_offsets`: of all the records with the
//! same key only the latest counts, and a key whose latest record is a tombstone is
//! gone. Replay depends only on the latest value per key, so the compacted log
//! rebuilds exactly the same coordinator (`from_records`), and `records()` stays
//! proportional to the live state however long the coordinator runs.
//!
//! The log is compacted right after a write leaves it longer than twice its live keys
//! plus `SLACK`: a pure function of the log, so a coordinator rebuilt from `records()`
//! compacts at exactly the same writes as the original (same answers, same snapshots).

use super::records::{Record, RecordKey};
use std::collections::{BTreeMap, BTreeSet};

/// Records the log may hold beyond twice its live keys before it is compacted.
pub const SLACK: usize = 256;

/// The keys whose latest record is a value, kept up to date record by record.
#[derive(Debug, Default, Clone)]
pub struct LiveKeys(BTreeSet<RecordKey>);

impl LiveKeys {
    pub fn note(&mut self, r: &Record) {
        if r.value.is_some() {
            if !self.0.contains(&r.key) {
                self.0.insert(r.key.clone());
            }
        } else {
            self.0.remove(&r.key);
        }
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn contains(&self, key: &RecordKey) -> bool {
        self.0.contains(key)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Whether a log of `len` records with `live` live keys is due for compaction.
pub fn due(len: usize, live: usize) -> bool {
    len > live.saturating_mul(2).saturating_add(SLACK)
}

/// Keeps, in offset order, the latest record of every key whose latest is a value,
/// and the last record whatever it is (Kafka never compacts the active segment): its
/// offset tells a coordinator rebuilt from the log where to go on, so no offset is
/// ever given twice. Replaying that tombstone on its own changes nothing.
pub fn compact(log: &mut Vec<Record>) {
    let mut latest: BTreeMap<&RecordKey, usize> = BTreeMap::new();
    for (i, r) in log.iter().enumerate() {
        latest.insert(&r.key, i);
    }
    let last = log.len().saturating_sub(1);
    let keep: Vec<bool> = log
        .iter()
        .enumerate()
        .map(|(i, r)| i == last || (r.value.is_some() && latest.get(&r.key) == Some(&i)))
        .collect();
    let mut i = 0;
    log.retain(|_| {
        let k = keep.get(i).copied().unwrap_or(true);
        i += 1;
        k
    });
}
