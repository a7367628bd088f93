//! A task list of the wire (`[{ subtopologyId, partitions }]`, the shape of
//! `Vec<TaskIds>`) held flat: one buffer of ids, one of partitions. A spread assignment
//! of 100 000 tasks is 100 000 one-partition entries; decoded as `Vec<TaskIds>` that is
//! a String and a Vec per entry, most of the decode's time in wasm (BENCHMARKS.md "The
//! JS boundary"). Decoding accepts exactly what `Vec<TaskIds>` accepts (null or absent
//! = empty) with the same errors, which `tests/it/task_list.rs` checks input by input.

use crate::protocol::json::partitions::Partition;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskList {
    /// The entries' subtopology ids, one after another.
    ids: String,
    /// Per entry: where its id ends in `ids`, where its partitions end in `partitions`.
    ends: Vec<(u32, u32)>,
    partitions: Vec<i32>,
}

impl TaskList {
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends one entry (`{ subtopologyId: id, partitions }`), as given: entries are
    /// not merged, sorted or checked here (the wire allows repeats; consumers decide).
    pub fn push(&mut self, id: &str, partitions: &[i32]) {
        self.ids.push_str(id);
        self.partitions.extend_from_slice(partitions);
        self.close_entry();
    }

    /// At the first entry of a decoded list, room for a few dozen entries: grown from
    /// empty one entry at a time, the three buffers were reallocated about nine times
    /// for ten entries (a 1 000 x 10 000 spec as JSON text decodes 9% faster natively,
    /// 1.85 -> 1.69 ms). An empty list allocates nothing.
    fn reserve_first(&mut self) {
        if self.ends.capacity() == 0 {
            self.ids.reserve(64);
            self.ends.reserve(16);
            self.partitions.reserve(16);
        }
    }

    fn close_entry(&mut self) {
        self.ends.push((
            u32::try_from(self.ids.len()).unwrap_or(u32::MAX),
            u32::try_from(self.partitions.len()).unwrap_or(u32::MAX),
        ));
    }

    /// The entries in their order: (subtopology id, partitions).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[i32])> + '_ {
        let mut from = (0usize, 0usize);
        self.ends.iter().map(move |&(id_end, p_end)| {
            let (i, p) = (id_end as usize, p_end as usize);
            let entry = (
                self.ids.get(from.0..i).unwrap_or_default(),
                self.partitions.get(from.1..p).unwrap_or_default(),
            );
            from = (i, p);
            entry
        })
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Partitions over all entries.
    pub fn task_entries(&self) -> usize {
        self.partitions.len()
    }
}

impl From<&[crate::protocol::TaskIds]> for TaskList {
    fn from(list: &[crate::protocol::TaskIds]) -> Self {
        list.iter()
            .map(|t| (t.subtopology_id.as_str(), t.partitions.as_slice()))
            .collect()
    }
}

impl From<Vec<crate::protocol::TaskIds>> for TaskList {
    fn from(list: Vec<crate::protocol::TaskIds>) -> Self {
        TaskList::from(list.as_slice())
    }
}

impl<'a> FromIterator<(&'a str, &'a [i32])> for TaskList {
    fn from_iter<I: IntoIterator<Item = (&'a str, &'a [i32])>>(iter: I) -> Self {
        let mut list = TaskList::new();
        for (id, ps) in iter {
            list.push(id, ps);
        }
        list
    }
}

impl Serialize for TaskList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Entry<'a>(&'a str, &'a [i32]);
        impl Serialize for Entry<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut st = s.serialize_struct("TaskIds", 2)?;
                st.serialize_field("subtopologyId", self.0)?;
                st.serialize_field("partitions", self.1)?;
                st.end()
            }
        }
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for (id, ps) in self.iter() {
            seq.serialize_element(&Entry(id, ps))?;
        }
        seq.end()
    }
}

/// Null (or an absent field, with `#[serde(default)]`) is the empty list, as the
/// `list` helper makes it for `Vec<TaskIds>`.
impl<'de> Deserialize<'de> for TaskList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_option(OptionalList)
    }
}

struct OptionalList;

impl<'de> Visitor<'de> for OptionalList {
    type Value = TaskList;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("option")
    }
    fn visit_none<E: de::Error>(self) -> Result<TaskList, E> {
        Ok(TaskList::new())
    }
    fn visit_unit<E: de::Error>(self) -> Result<TaskList, E> {
        Ok(TaskList::new())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<TaskList, D::Error> {
        d.deserialize_seq(ListVisitor)
    }
}

struct ListVisitor;

impl<'de> Visitor<'de> for ListVisitor {
    type Value = TaskList;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TaskList, A::Error> {
        let mut list = TaskList::new();
        while seq.next_element_seed(EntrySeed(&mut list))?.is_some() {}
        Ok(list)
    }
}

const FIELDS: &[&str] = &["subtopologyId", "partitions"];

#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "camelCase")]
enum Field {
    SubtopologyId,
    Partitions,
}

/// One `{ subtopologyId, partitions }` appended to the list (or, as serde's derive
/// reads a struct, `[subtopologyId, partitions]`).
struct EntrySeed<'l>(&'l mut TaskList);

impl<'de> DeserializeSeed<'de> for EntrySeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_struct("TaskIds", FIELDS, self)
    }
}

impl<'de> Visitor<'de> for EntrySeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct TaskIds")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let list = self.0;
        list.reserve_first();
        let (ids_at, parts_at) = (list.ids.len(), list.partitions.len());
        let (mut id, mut parts) = (false, false);
        while let Some(key) = map.next_key::<Field>()? {
            match key {
                Field::SubtopologyId if id => {
                    return Err(de::Error::duplicate_field("subtopologyId"))
                }
                Field::Partitions if parts => return Err(de::Error::duplicate_field("partitions")),
                Field::SubtopologyId => {
                    map.next_value_seed(IdSeed(&mut list.ids))?;
                    id = true;
                }
                Field::Partitions => {
                    map.next_value_seed(PartitionsSeed(&mut list.partitions))?;
                    parts = true;
                }
            }
        }
        if !id {
            return Err(de::Error::missing_field("subtopologyId"));
        }
        if !parts {
            return Err(de::Error::missing_field("partitions"));
        }
        // Keys come in any order: each buffer grew only by this entry.
        debug_assert!(list.ids.len() >= ids_at && list.partitions.len() >= parts_at);
        list.close_entry();
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let list = self.0;
        list.reserve_first();
        if seq.next_element_seed(IdSeed(&mut list.ids))?.is_none() {
            return Err(de::Error::invalid_length(
                0,
                &"struct TaskIds with 2 elements",
            ));
        }
        if seq
            .next_element_seed(PartitionsSeed(&mut list.partitions))?
            .is_none()
        {
            return Err(de::Error::invalid_length(
                1,
                &"struct TaskIds with 2 elements",
            ));
        }
        list.close_entry();
        Ok(())
    }
}

/// A subtopology id appended to the ids buffer (no String of its own).
struct IdSeed<'b>(&'b mut String);

impl<'de> DeserializeSeed<'de> for IdSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for IdSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        self.0.push_str(s);
        Ok(())
    }
}

/// A partition list appended to the partitions buffer, each checked as
/// `partitions::deserialize` checks it.
struct PartitionsSeed<'b>(&'b mut Vec<i32>);

impl<'de> DeserializeSeed<'de> for PartitionsSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PartitionsSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(Partition(p)) = seq.next_element::<Partition>()? {
            self.0.push(p);
        }
        Ok(())
    }
}

/// The distinct subtopology ids of packed lists (the binding packs the owned lists and
/// reported offsets of a JS object that way, src/wasm/packed.rs): joined by U+0000 in
/// one string.
#[derive(Default)]
pub struct PackedIds<'a> {
    pub names: Vec<&'a str>,
    /// Each id's length as a JSON string literal (for the input limit).
    json_bytes: Vec<usize>,
}

impl<'a> PackedIds<'a> {
    /// `None` when an id is longer than Kafka's STRING limit (the JSON text path then
    /// words the error).
    ///
    /// One pass over the bytes, each id's JSON length counted on the way (split and
    /// then measured, 20 000 ids of about ten bytes took 0.6 ms in wasm), eight bytes
    /// at a time: only the separators and the rare bytes JSON escapes need a look of
    /// their own (byte by byte, 3% of `assign()` on 1 000 x 10 000).
    pub fn parse(ids: &'a str) -> Option<Self> {
        let mut split = Split {
            ids,
            names: Vec::new(),
            json_bytes: Vec::new(),
            start: 0,
            extra: 0,
        };
        let mut chunks = ids.as_bytes().chunks_exact(8);
        let mut at = 0;
        for chunk in &mut chunks {
            let w = u64::from_le_bytes(chunk.try_into().ok()?);
            let zeros = bytes_below(w, 1);
            let escaped = (bytes_below(w, 0x20) & !zeros)
                | bytes_below(w ^ (ONES * u64::from(b'"')), 1)
                | bytes_below(w ^ (ONES * u64::from(b'\\')), 1);
            if escaped != 0 {
                for (k, &b) in chunk.iter().enumerate() {
                    split.byte(at + k, b)?;
                }
            } else {
                let mut z = zeros;
                while z != 0 {
                    split.end(at + (z.trailing_zeros() / 8) as usize)?;
                    z &= z - 1;
                }
            }
            at += 8;
        }
        for (k, &b) in chunks.remainder().iter().enumerate() {
            split.byte(at + k, b)?;
        }
        split.end(ids.len())?;
        let Split {
            names, json_bytes, ..
        } = split;
        names
            .iter()
            .all(|id| id.len() <= crate::limits::MAX_STRING_BYTES)
            .then_some(PackedIds { names, json_bytes })
    }

    /// The length of all the ids as JSON strings.
    pub fn json_len(&self) -> usize {
        self.json_bytes.iter().sum()
    }

    /// Id `i` and its length as a JSON string.
    pub fn get(&self, i: usize) -> Option<(&'a str, usize)> {
        Some((*self.names.get(i)?, *self.json_bytes.get(i)?))
    }
}

/// 0x01 in each byte.
const ONES: u64 = u64::from_le_bytes([1; 8]);

/// Bit 7 set in each byte of `w` below `n` (at most 0x80), exactly: no carry crosses
/// a byte (each sum is at most 0x7f + 0x7f).
const fn bytes_below(w: u64, n: u8) -> u64 {
    const LOW: u64 = u64::from_le_bytes([0x7f; 8]);
    let sum = (w & LOW).wrapping_add(ONES.wrapping_mul(0x80 - n as u64));
    !(sum | w) & !LOW
}

/// `PackedIds::parse`'s ids so far, and the one being read.
struct Split<'a> {
    ids: &'a str,
    names: Vec<&'a str>,
    json_bytes: Vec<usize>,
    start: usize,
    /// The bytes the open id's escapes add.
    extra: usize,
}

impl<'a> Split<'a> {
    fn byte(&mut self, i: usize, b: u8) -> Option<()> {
        if b == 0 {
            return self.end(i);
        }
        self.extra += crate::limits::json_byte_len(b) - 1;
        Some(())
    }

    /// The open id ends at `i`.
    #[inline]
    fn end(&mut self, i: usize) -> Option<()> {
        self.names.push(self.ids.get(self.start..i)?);
        self.json_bytes.push(i - self.start + self.extra + 2);
        (self.start, self.extra) = (i + 1, 0);
        Some(())
    }
}

/// A cursor over packed lists. `ints` holds per list -1 (null) or its entry count,
/// then per entry of a task list the id's index in the ids, the partition count and
/// the partitions, per entry of an offset list the id's index and the partition (its
/// offset is the next of `offsets`). A read is `None` for anything out of shape, or
/// beyond what the JSON text of the same lists could carry: more than `json_budget`
/// bytes, an upper bound of the lists' JSON text (the caller then decodes the JSON
/// text, whose decoder words the error).
pub struct PackedReader<'i, 'a> {
    ids: &'a PackedIds<'a>,
    ints: &'i [i32],
    offsets: &'i [f64],
    at: usize,
    offset_at: usize,
    bytes: usize,
    json_budget: usize,
}

impl<'i, 'a> PackedReader<'i, 'a> {
    pub fn new(
        ids: &'a PackedIds<'a>,
        ints: &'i [i32],
        offsets: &'i [f64],
        json_budget: usize,
    ) -> Self {
        PackedReader {
            ids,
            ints,
            offsets,
            at: 0,
            offset_at: 0,
            bytes: 0,
            json_budget,
        }
    }

    fn next(&mut self, n: usize) -> Option<&'i [i32]> {
        let s = self.ints.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }

    /// Counts `bytes` of JSON text against the budget.
    fn spend(&mut self, bytes: usize) -> Option<()> {
        self.bytes = self.bytes.checked_add(bytes)?;
        (self.bytes <= self.json_budget).then_some(())
    }

    /// An entry's head, the same in both kinds of list: its id's index, that id's
    /// JSON length, and the int after it (a partition count, or a partition).
    fn entry(&mut self) -> Option<(usize, usize, i32)> {
        let &[id, second] = self.next(2)? else {
            return None;
        };
        let id = usize::try_from(id).ok()?;
        Some((id, *self.ids.json_bytes.get(id)?, second))
    }

    /// A list's entry count, `None` inside for null; `key_bytes`: its key's JSON, as
    /// in `"standbyTasks":null,`.
    fn count(&mut self, key_bytes: usize) -> Option<Option<usize>> {
        self.spend(key_bytes)?;
        match *self.next(1)?.first()? {
            -1 => Some(None),
            n => usize::try_from(n).ok().map(Some),
        }
    }

    /// A spec member's flag in front of its lists: whether it came whole (ids packed).
    pub fn whole(&mut self) -> Option<bool> {
        match *self.next(1)?.first()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    /// One task list into `entries` (id index, partitions); false for null.
    pub fn task_list(&mut self, entries: &mut Vec<(usize, &'i [i32])>) -> Option<bool> {
        entries.clear();
        self.each_task(|id, partitions| entries.push((id, partitions)))
    }

    /// One task list, each entry (id index, partitions) handed to `f` as it is read;
    /// false for null.
    pub fn each_task(&mut self, mut f: impl FnMut(usize, &'i [i32])) -> Option<bool> {
        let Some(count) = self.count(r#""standbyTasks":null,"#.len())? else {
            return Some(false);
        };
        for _ in 0..count {
            let (id, id_bytes, n) = self.entry()?;
            let partitions = self.next(usize::try_from(n).ok()?)?;
            if partitions.iter().any(|&p| p < 0) {
                return None;
            }
            // A partition is at most 10 digits and a comma.
            self.spend(34 + id_bytes + 11 * partitions.len())?;
            f(id, partitions);
        }
        Some(true)
    }

    /// One offset list into `entries` (id index, partition, offset); false for null.
    pub fn offset_list(&mut self, entries: &mut Vec<(usize, i32, i64)>) -> Option<bool> {
        entries.clear();
        let Some(count) = self.count(r#""taskEndOffsets":null,"#.len())? else {
            return Some(false);
        };
        for _ in 0..count {
            let (id, id_bytes, partition) = self.entry()?;
            let offset = *self.offsets.get(self.offset_at)?;
            self.offset_at += 1;
            // Safe integers only, as JSON text carries them exactly (NaN and the
            // infinities fail the first test).
            let safe = crate::protocol::json::MAX_SAFE_INTEGER as f64;
            if partition < 0 || offset.fract() != 0.0 || offset.abs() > safe {
                return None;
            }
            // `{"subtopologyId":,"partition":,"offset":},`, a partition at most 10
            // digits, a safe integer at most 17 characters.
            const ENTRY: usize = r#"{"subtopologyId":,"partition":,"offset":},"#.len() + 10 + 17;
            self.spend(ENTRY + id_bytes)?;
            entries.push((id, partition, offset as i64));
        }
        Some(true)
    }

    /// Where the next read starts in the ints.
    pub fn position(&self) -> usize {
        self.at
    }

    /// Whether every int and every offset was read.
    pub fn done(&self) -> bool {
        self.at == self.ints.len() && self.offset_at == self.offsets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::{PackedIds, PackedReader};
    use crate::limits::json_len;

    /// Eight bytes at a time or one by one, the same split and lengths as the plain
    /// reading: ids of every length against every chunk boundary, with separators,
    /// escapes and multi-byte characters anywhere.
    #[test]
    fn packed_ids_read_by_chunks_as_by_bytes() {
        let pieces = [
            "a", "\"", "\\", "\n", "\u{1}", "\u{1f}", "é", "€", "😀", " ", "\u{7f}",
        ];
        let mut seed: u64 = 7;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..2000 {
            let ids: Vec<String> = (0..1 + next(6))
                .map(|_| (0..next(20)).map(|_| pieces[next(pieces.len())]).collect())
                .collect();
            let joined = ids.join("\0");
            let parsed = PackedIds::parse(&joined).expect("short ids");
            assert_eq!(parsed.names, ids, "{joined:?}");
            let lengths: Vec<usize> = ids.iter().map(|id| json_len(id) + 2).collect();
            assert_eq!(parsed.json_bytes, lengths, "{joined:?}");
        }
    }

    /// A list's reading counts its JSON text against the budget: the key, then per
    /// entry its braces and keys, its id and each partition at its longest.
    #[test]
    fn a_task_list_beyond_the_json_budget_is_refused() {
        let ids = PackedIds::parse("ab").expect("short ids");
        let ints = [2, 0, 1, 7, 0, 2, 1, 2];
        let cost = r#""standbyTasks":null,"#.len() + (34 + 4 + 11) + (34 + 4 + 2 * 11);
        let read = |budget| {
            let mut entries = Vec::new();
            let mut reader = PackedReader::new(&ids, &ints, &[], budget);
            let read = reader.task_list(&mut entries);
            (read, entries.len(), reader.done())
        };
        assert_eq!(read(cost), (Some(true), 2, true));
        assert_eq!(read(cost - 1).0, None);
        // And anything out of shape: a negative partition, an unknown id.
        let mut entries = Vec::new();
        let bad = [1, 0, 1, -1];
        assert_eq!(
            PackedReader::new(&ids, &bad, &[], cost).task_list(&mut entries),
            None
        );
        let unknown = [1, 1, 1, 0];
        assert_eq!(
            PackedReader::new(&ids, &unknown, &[], cost).task_list(&mut entries),
            None
        );
    }

    #[test]
    fn packed_ids_split_and_measure_each_id_as_json() {
        let ids = [
            "",
            "a",
            "quote\"d",
            "back\\slash",
            "tab\tnew\nline",
            "\u{1}\u{1f}",
            "é€😀",
        ];
        let joined = ids.join("\0");
        let parsed = PackedIds::parse(&joined).expect("short ids");
        assert_eq!(parsed.names, ids);
        let expected: usize = ids.iter().map(|id| json_len(id) + 2).sum();
        assert_eq!(parsed.json_len(), expected);
        // Each escape counted: the two control characters take six bytes each.
        assert_eq!(json_len("\u{1}\u{1f}"), 12);
    }
}
