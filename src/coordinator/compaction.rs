//! Log compaction, as Kafka compacts `__consumer_offsets`: of all the records with the
//! same key only the latest counts, and a key whose latest record is a tombstone is
//! gone. Replay depends only on the latest value per key, so the compacted log
//! rebuilds exactly the same coordinator (`from_records`), and `records()` stays
//! proportional to the live state however long the coordinator runs.
//!
//! The log is compacted right after a write leaves it longer than twice its live keys
//! plus `SLACK`, or its JSON text longer than twice its live records' plus
//! `SLACK_BYTES`: a pure function of the log, so a coordinator rebuilt from
//! `records()` compacts at exactly the same writes as the original (same answers,
//! same snapshots). So the log's text never passes twice its live records' text plus
//! `SLACK_BYTES` (and one tombstone), which is what the budget bounds
//! (`limits::records_limit`).

use super::records::{Record, RecordKey};
use std::collections::BTreeMap;

/// Records the log may hold beyond twice its live keys before it is compacted.
pub const SLACK: usize = 256;
/// Bytes of JSON the log may hold beyond twice its live records' before it is compacted.
pub const SLACK_BYTES: u64 = 1 << 20;

/// The keys whose latest record is a value, with that record's bytes of JSON
/// (`limits::record_bytes`), kept up to date record by record.
#[derive(Debug, Default, Clone)]
pub struct LiveKeys {
    keys: BTreeMap<RecordKey, u64>,
    bytes: u64,
}

impl LiveKeys {
    /// Notes a record of `bytes` bytes of JSON appended to the log.
    pub fn note(&mut self, r: &Record, bytes: u64) {
        let old = if r.value.is_some() {
            match self.keys.get_mut(&r.key) {
                Some(b) => Some(std::mem::replace(b, bytes)),
                None => {
                    self.keys.insert(r.key.clone(), bytes);
                    None
                }
            }
        } else {
            self.keys.remove(&r.key)
        };
        self.bytes = self.bytes.saturating_sub(old.unwrap_or(0));
        if r.value.is_some() {
            self.bytes = self.bytes.saturating_add(bytes);
        }
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Bytes of JSON of the latest record of every live key: the compacted log's text.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn contains(&self, key: &RecordKey) -> bool {
        self.keys.contains_key(key)
    }

    /// Bytes of the latest record of `key`, 0 when it is not live.
    pub fn bytes_of(&self, key: &RecordKey) -> u64 {
        self.keys.get(key).copied().unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// Whether a log of `len` records and `bytes` bytes of JSON, `live` of its keys live
/// with `live_bytes` in their latest records, is due for compaction.
pub fn due(len: usize, live: usize, bytes: u64, live_bytes: u64) -> bool {
    len > live.saturating_mul(2).saturating_add(SLACK)
        || bytes > live_bytes.saturating_mul(2).saturating_add(SLACK_BYTES)
}

/// Keeps, in offset order, the latest record of every key whose latest is a value,
/// and the last record whatever it is (Kafka never compacts the active segment): its
/// offset tells a coordinator rebuilt from the log where to go on, so no offset is
/// ever given twice. Replaying that tombstone on its own changes nothing.
pub fn compact(log: &mut Vec<Record>) {
    let keep = kept(log);
    retain_by(log, &keep);
}

/// `compact` of a log and the byte counts of its records, side by side.
pub fn compact_sized(log: &mut Vec<Record>, sizes: &mut Vec<u64>) {
    let keep = kept(log);
    retain_by(log, &keep);
    retain_by(sizes, &keep);
}

fn retain_by<T>(v: &mut Vec<T>, keep: &[bool]) {
    let mut i = 0;
    v.retain(|_| {
        let k = keep.get(i).copied().unwrap_or(true);
        i += 1;
        k
    });
}

/// Which records compaction keeps.
fn kept(log: &[Record]) -> Vec<bool> {
    let mut latest: BTreeMap<&RecordKey, usize> = BTreeMap::new();
    for (i, r) in log.iter().enumerate() {
        latest.insert(&r.key, i);
    }
    let last = log.len().saturating_sub(1);
    log.iter()
        .enumerate()
        .map(|(i, r)| i == last || (r.value.is_some() && latest.get(&r.key) == Some(&i)))
        .collect()
}
