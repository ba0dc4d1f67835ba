//! The per-thread logic of a row's delivery on the GPU
//! (`gpu_kernels::rows::gather_one`), run on the CPU: random permutations,
//! distances with unreached and saturated entries, limits and targets,
//! against the host's own gather (`Permutation::map_distances_back`),
//! `Stop::apply` and the overflow check.

use core::sync::atomic::{AtomicU32, Ordering};

use gpu_kernels::distance::{INFINITY, SATURATED};
use gpu_kernels::rows::{ROW_FLAGS, gather_one, saturated};
use sssp::options::Stop;
use sssp::reorder::Permutation;
use sssp_tests::TestRng;

#[test]
fn gathered_rows_equal_the_hosts_gather_bound_and_overflow_check() {
    let mut rng = TestRng::new("rows_cpu::gather");
    for round in 0..300 {
        let n = rng.range(1, 400) as usize;
        // A random permutation (Fisher-Yates).
        let mut order: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let permutation = Permutation::from_old_of_new(order).expect("a permutation");
        // Distances by new id; the solver's buffer may be longer than n.
        let extra = rng.below(3) as usize;
        let dist: Vec<u32> = (0..n + extra)
            .map(|_| match rng.below(10) {
                0 => INFINITY,
                1 if rng.chance(0.3) => SATURATED,
                _ => rng.below(1_000) as u32,
            })
            .collect();
        let stop = Stop {
            limit: rng.chance(0.5).then(|| rng.below(1_200) as u32),
            target: rng.chance(0.5).then(|| rng.below(n as u64) as usize),
        };
        let context = format!("round {round}, n = {n}, {stop:?}, seed {}", rng.seed);
        let target_new = stop
            .target
            .map_or(INFINITY, |t| permutation.new_id(t) as u32);
        let flags: Vec<AtomicU32> = (0..ROW_FLAGS).map(|_| AtomicU32::new(0)).collect();
        let mut row = vec![0u32; n];
        for (v, out) in row.iter_mut().enumerate() {
            let bounds = (stop.limit_word(), target_new);
            gather_one(v, &dist, permutation.new_of_old(), bounds, out, &flags);
        }
        let mut expected = permutation.map_distances_back(&dist[..n]);
        stop.apply(&mut expected);
        assert_eq!(row, expected, "{context}");
        let words = [
            flags[0].load(Ordering::Relaxed),
            flags[1].load(Ordering::Relaxed),
        ];
        let overflowing: Vec<usize> = (0..n).filter(|&v| expected[v] == SATURATED).collect();
        let want = overflowing.first().map(|&v| (v, overflowing.len()));
        assert_eq!(saturated(words), want, "{context}");
    }
}
