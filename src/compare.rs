//! Comparisons of short ids and task lists, inline. In wasm, `str` and slice
//! comparisons call `memcmp`, a byte loop behind a call: on 1 000 x 10 000 after a leave
//! it was 5% of `assign()` (member ids checked for order, the result's lists compared
//! with the given ones).

use std::cmp::Ordering;

/// Compares two ids as `str::cmp` does (byte order), eight bytes at a time.
pub fn cmp_id(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let (x, y) = (word(x), word(y));
        if x != y {
            return x.cmp(&y);
        }
    }
    let done = a.len().min(b.len()) / 8 * 8;
    let (a, b) = (
        a.get(done..).unwrap_or_default(),
        b.get(done..).unwrap_or_default(),
    );
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

/// `a == b`, lengths first (ids of one group are often of one length or a few).
pub fn same_id(a: &str, b: &str) -> bool {
    a.len() == b.len() && cmp_id(a, b) == Ordering::Equal
}

/// `a < b` in byte order.
pub fn id_before(a: &str, b: &str) -> bool {
    cmp_id(a, b) == Ordering::Less
}

/// `a == b` for task numbers, element by element.
pub fn same_tasks(a: &[u32], b: &[u32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Eight bytes as a big-endian number (so numeric order is byte order).
fn word(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(bytes.get(..8).unwrap_or(&[0; 8]));
    u64::from_be_bytes(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDS: [&str; 14] = [
        "",
        "a",
        "ab",
        "abcdefgh",
        "abcdefgg",
        "abcdefghi",
        "abcdefgh0",
        "topic-1_subtopology",
        "topic-10_subtopology",
        "topic-2_subtopology",
        "zé",
        "z\u{10348}",
        "Z",
        "0",
    ];

    #[test]
    fn id_comparison_is_byte_order() {
        for a in IDS {
            for b in IDS {
                assert_eq!(cmp_id(a, b), a.cmp(b), "{a:?} vs {b:?}");
                assert_eq!(same_id(a, b), a == b, "{a:?} vs {b:?}");
                assert_eq!(id_before(a, b), a < b, "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn task_lists_compare_as_slices() {
        let lists: [&[u32]; 5] = [&[], &[1], &[1, 2], &[1, 3], &[2, 1]];
        for a in lists {
            for b in lists {
                assert_eq!(same_tasks(a, b), a == b, "{a:?} vs {b:?}");
            }
        }
    }
}
