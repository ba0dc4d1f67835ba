//! The trend of a measured series: the least-squares slope, for tests that
//! must see a steady growth (a leak of device memory per solve) through
//! noise and the one-off steps of a memory pool.

/// The least-squares slope of `samples` against their index: units a step.
/// 0 for fewer than two samples.
pub fn slope(samples: &[f64]) -> f64 {
    let n = samples.len() as f64;
    if samples.len() < 2 {
        return 0.0;
    }
    let mean_x = (n - 1.0) / 2.0;
    let mean_y = samples.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (i, &y) in samples.iter().enumerate() {
        let dx = i as f64 - mean_x;
        sxy += dx * (y - mean_y);
        sxx += dx * dx;
    }
    sxy / sxx
}

/// Checks that `used` (bytes in use after each round, any origin) grows by
/// at most `max_per_round` bytes a round on the least-squares fit: the
/// slope, or an error that gives it and every sample.
pub fn check_growth(used: &[i64], max_per_round: f64) -> Result<f64, String> {
    let series: Vec<f64> = used.iter().map(|&b| b as f64).collect();
    let per_round = slope(&series);
    if per_round <= max_per_round {
        return Ok(per_round);
    }
    Err(format!(
        "bytes in use grow by {per_round:.0} a round over {} rounds (at most {max_per_round:.0} \
         allowed); bytes in use after each round: {used:?}",
        used.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TestRng;

    const MIB: i64 = 1 << 20;

    /// Noise of up to ±`amplitude` bytes and the steps of a memory pool, as
    /// free device memory moves without a leak: up to two steps of 2 or 8
    /// MiB taken, one of 2 MiB given back (three at most), each at a random
    /// round.
    fn noisy(rng: &mut TestRng, rounds: usize, amplitude: i64) -> Vec<i64> {
        let mut steps: Vec<(usize, i64)> = Vec::new();
        for step in [2 * MIB, 8 * MIB, 8 * MIB, -2 * MIB] {
            if steps.len() < 3 && rng.chance(0.5) {
                steps.push((rng.below(rounds as u64) as usize, step));
            }
        }
        (0..rounds)
            .map(|round| {
                let pool: i64 = steps
                    .iter()
                    .filter(|&&(at, _)| at <= round)
                    .map(|s| s.1)
                    .sum();
                pool + rng.range(0, 2 * amplitude as u64) as i64 - amplitude
            })
            .collect()
    }

    #[test]
    fn slope_of_a_line_is_its_step() {
        let line: Vec<f64> = (0..40).map(|i| 7.0 + 3.5 * i as f64).collect();
        assert!((slope(&line) - 3.5).abs() < 1e-9);
        assert_eq!(slope(&[5.0]), 0.0);
        assert_eq!(slope(&[]), 0.0);
    }

    #[test]
    fn a_leak_of_a_round_shows_through_noise_and_a_flat_series_passes() {
        let mut rng = TestRng::new("trend::leak_and_flat");
        // One round's footprint ~6 MiB, its eighth allowed a round.
        let footprint = 6 * MIB;
        let allowed = footprint as f64 / 8.0;
        for case in 0..200 {
            let flat = noisy(&mut rng, 48, MIB);
            check_growth(&flat, allowed)
                .unwrap_or_else(|e| panic!("case {case}, seed {}: flat: {e}", rng.seed));
            // A leak of a quarter of the footprint a solve (one buffer of
            // several), in the driver's 2 MiB granules: flagged.
            let mut leaked = 0;
            let leaky: Vec<i64> = flat
                .iter()
                .map(|&b| {
                    leaked += footprint / 4;
                    b + leaked / (2 * MIB) * (2 * MIB)
                })
                .collect();
            assert!(
                check_growth(&leaky, allowed).is_err(),
                "case {case}, seed {}: a leak of {} bytes a round passed: {leaky:?}",
                rng.seed,
                footprint / 4
            );
        }
    }
}
