//! The partition solver's tuning without a GPU: window scaling, and the searches of the window, edge lanes, chain hops and entries-first order.

use gpu_kernels::distance::MAX_DISTANCE;
use sssp_tests::TestRng;

#[test]
fn window_scaling_keeps_words_positive_and_capped() {
    use sssp::partition::search::scale_window;
    assert_eq!(scale_window::<u32>(400, 0.5), 200);
    assert_eq!(scale_window::<u32>(400, 2.0), 800);
    assert_eq!(scale_window::<u32>(1, 0.5), 1, "no zero window");
    let cap = scale_window::<u32>(MAX_DISTANCE, 2.0);
    assert!(
        cap.abs_diff(MAX_DISTANCE / 2) <= 1,
        "{cap}: capped at half the largest distance"
    );
    let real = |w: f32, factor| f32::from_bits(scale_window::<f32>(w.to_bits(), factor));
    assert_eq!(
        real(2.5, 0.5),
        1.25,
        "f32 windows scale the value, not the bits"
    );
    assert_eq!(real(2.5, 2.0), 5.0);
}

/// The window search on made-up timings: a valley at `best` (time grows
/// with the distance from it in halvings), with noise-free ties.
#[test]
fn window_search_walks_to_the_valley_within_its_steps() {
    use sssp::partition::search::{WINDOW_SEARCH_STEPS, scale_window, search_window};
    let mut rng = TestRng::new("window_search_walks_to_the_valley_within_its_steps");
    let (halvings, doublings) = WINDOW_SEARCH_STEPS;
    for round in 0..500 {
        let base = rng.range(1, 1 << 20) as u32;
        // The valley anywhere from far below to far above the base.
        let steps = rng.range(0, 16) as i32 - 8;
        let best = scale_window::<u32>(base, 2f64.powi(steps));
        let cost = |w: u32| ((f64::from(w) / f64::from(best)).log2().abs() * 100.0).round() as f32;
        let mut calls = 0;
        let (found, tried) = search_window(base, scale_window::<u32>, |w| {
            calls += 1;
            Ok::<f32, ()>(cost(w))
        })
        .unwrap();
        let context = format!(
            "round {round}, base {base}, valley {best}, seed {}, tried {tried:?}",
            rng.seed
        );
        assert_eq!(tried.len(), calls, "{context}");
        assert_eq!(tried[0].0, base, "{context}: the default first");
        // Never beyond its steps, never the same window twice.
        let lowest = (0..halvings).fold(base, |w, _| scale_window::<u32>(w, 0.5));
        let highest = (0..doublings).fold(base, |w, _| scale_window::<u32>(w, 2.0));
        assert!(
            tried.iter().all(|&(w, _)| (lowest..=highest).contains(&w)),
            "{context}"
        );
        let mut windows: Vec<u32> = tried.iter().map(|t| t.0).collect();
        windows.sort_unstable();
        windows.dedup();
        assert_eq!(windows.len(), tried.len(), "{context}");
        // It stops at the first step that is slower: the default, the steps
        // down to the valley and one past it (or the first halving, then the
        // steps up and one past).
        let most = if steps < 0 {
            1 + halvings.min(steps.unsigned_abs() + 1)
        } else {
            2 + doublings.min(steps as u32 + 1)
        };
        assert!(
            tried.len() <= most as usize,
            "{context}: at most {most} windows"
        );
        // The fastest tried, and the reachable window nearest the valley.
        let fastest = tried.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(cost(found), fastest.1, "{context}");
        let reachable = scale_window::<u32>(best, 1.0).clamp(lowest, highest);
        assert!(
            cost(found) <= cost(reachable) + 10.0,
            "{context}: found {found}, {reachable} reachable"
        );
    }
}

/// The edge-lanes search on made-up timings with a valley at each lane
/// count from 1 to 32: it starts at the default, keeps to 1..=32 lanes and
/// its steps, and returns the fastest it tried, the valley where reachable.
#[test]
fn edge_lanes_search_finds_the_valley_within_a_warp() {
    use sssp::partition::search::{DEFAULT_EDGE_LANES, EDGE_LANES_SEARCH_STEPS, search_edge_lanes};
    let (halvings, doublings) = EDGE_LANES_SEARCH_STEPS;
    let lowest = (DEFAULT_EDGE_LANES >> halvings).max(1);
    let highest = (DEFAULT_EDGE_LANES << doublings).min(32);
    for best in 1..=32u32 {
        let cost = |l: u32| (f64::from(l) / f64::from(best)).log2().abs() as f32;
        let (found, tried) =
            search_edge_lanes(DEFAULT_EDGE_LANES, |l| Ok::<f32, ()>(cost(l))).unwrap();
        let context = format!("valley at {best} lanes, tried {tried:?}");
        assert_eq!(
            tried[0].0, DEFAULT_EDGE_LANES,
            "{context}: the default first"
        );
        assert!(
            tried.iter().all(|&(l, _)| (lowest..=highest).contains(&l)),
            "{context}"
        );
        let fastest = tried.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(cost(found), fastest.1, "{context}");
        // Powers of two from the default: the valley's nearest one in reach.
        let reachable = best.next_power_of_two().clamp(lowest, highest);
        assert!(cost(found) <= cost(reachable), "{context}: found {found}");
    }
}

/// The chain-hops search on made-up timings with a valley at each count
/// from 0 to 8: it starts at the default, tries one hop fewer and, where
/// that is slower, one more, and returns the fastest it tried.
#[test]
fn chain_hops_search_tries_one_fewer_then_one_more() {
    use gpu_kernels::partition::DEFAULT_CHAIN_HOPS;
    use sssp::partition::search::search_chain_hops;
    for best in 0..=8u32 {
        let cost = |h: u32| h.abs_diff(best) as f32;
        let (found, tried) =
            search_chain_hops(DEFAULT_CHAIN_HOPS, |h| Ok::<f32, ()>(cost(h))).unwrap();
        let context = format!("valley at {best} hops, tried {tried:?}");
        let hops: Vec<u32> = tried.iter().map(|t| t.0).collect();
        let expected = if best < DEFAULT_CHAIN_HOPS {
            vec![DEFAULT_CHAIN_HOPS, DEFAULT_CHAIN_HOPS - 1]
        } else {
            vec![
                DEFAULT_CHAIN_HOPS,
                DEFAULT_CHAIN_HOPS - 1,
                DEFAULT_CHAIN_HOPS + 1,
            ]
        };
        assert_eq!(hops, expected, "{context}");
        let fastest = tried.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(found, fastest.0, "{context}");
        assert!(
            found.abs_diff(best) <= best.abs_diff(DEFAULT_CHAIN_HOPS),
            "{context}"
        );
    }
}

/// The entries-first trial times the default, then the other setting, and
/// keeps the faster.
#[test]
fn entries_first_search_tries_both_and_keeps_the_faster() {
    use sssp::partition::search::search_entries_first;
    for base in [false, true] {
        for faster in [0u32, 1] {
            let (found, tried) = search_entries_first(base, |on| {
                Ok::<f32, ()>(if on == faster { 1.0 } else { 2.0 })
            })
            .unwrap();
            let context = format!("default {base}, faster {faster}, tried {tried:?}");
            let settings: Vec<u32> = tried.iter().map(|t| t.0).collect();
            assert_eq!(settings, [u32::from(base), u32::from(!base)], "{context}");
            assert_eq!(found, faster, "{context}");
        }
    }
}
