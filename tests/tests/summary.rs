//! The summary of a row (`distances::summarize`: reached, largest distance,
//! checksum), computed block by block on all cores, against a plain serial
//! reading; the checksum tells apart rows that differ in one word, in the
//! order of two words, or in length, across block boundaries.

use gpu_kernels::distance::{INFINITY, SATURATED};
use sssp::distances::{CHECKSUM_BLOCK, checksum, summarize};
use sssp_tests::TestRng;

#[test]
fn summaries_count_reached_vertices_and_checksums_tell_rows_apart() {
    let mut rng = TestRng::new("summary::checksums");
    for case in 0..60 {
        let len = match case % 3 {
            0 => rng.below(50) as usize,
            1 => CHECKSUM_BLOCK + rng.below(3) as usize - 1,
            _ => rng.range(1, 4 * CHECKSUM_BLOCK as u64) as usize,
        };
        let row: Vec<u32> = (0..len)
            .map(|_| match rng.below(8) {
                0 => INFINITY,
                1 => SATURATED,
                _ => rng.below(1 << 20) as u32,
            })
            .collect();
        let context = format!("case {case}, {len} words, seed {}", rng.seed);
        let summary = summarize(&row);
        let reached = row.iter().filter(|&&d| d < SATURATED).count();
        let max = row
            .iter()
            .copied()
            .filter(|&d| d < SATURATED)
            .max()
            .unwrap_or(0);
        assert_eq!(
            (summary.reached, summary.max_distance),
            (reached, max),
            "{context}"
        );
        assert_eq!(summary.checksum, checksum(&row), "{context}");
        if len == 0 {
            continue;
        }
        let mut changed = row.clone();
        let i = rng.below(len as u64) as usize;
        changed[i] ^= 1 << rng.below(32);
        assert_ne!(
            checksum(&changed),
            checksum(&row),
            "{context}: word {i} changed"
        );
        let j = rng.below(len as u64) as usize;
        let mut swapped = row.clone();
        swapped.swap(i, j);
        if row[i] != row[j] {
            assert_ne!(
                checksum(&swapped),
                checksum(&row),
                "{context}: {i} and {j} swapped"
            );
        }
        assert_ne!(
            checksum(&row[..len - 1]),
            checksum(&row),
            "{context}: one word shorter"
        );
    }
}
