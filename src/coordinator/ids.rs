//! Member ids the coordinator generates: a pure function of the configured seed and
//! how many ids were generated before, so runs (and rebuilt coordinators) repeat.

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The `n`-th id for `seed`, formatted like a version-4 UUID.
pub fn member_id(seed: u64, n: u64) -> String {
    let a = splitmix64(seed ^ splitmix64(n.wrapping_mul(2)));
    let b = splitmix64(seed.rotate_left(17) ^ splitmix64(n.wrapping_mul(2).wrapping_add(1)));
    let hi = (a & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_4000;
    let lo = (b & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000;
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        hi >> 32,
        (hi >> 16) & 0xffff,
        hi & 0xffff,
        lo >> 48,
        lo & 0xffff_ffff_ffff
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_reproducible_distinct_and_uuid_shaped() {
        assert_eq!(member_id(7, 3), member_id(7, 3));
        assert_ne!(member_id(7, 3), member_id(7, 4));
        assert_ne!(member_id(7, 3), member_id(8, 3));
        let id = member_id(0, 0);
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
        let ids: std::collections::BTreeSet<_> = (0..1000).map(|n| member_id(1, n)).collect();
        assert_eq!(ids.len(), 1000);
    }
}
