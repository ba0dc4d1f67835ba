//! An index file that cannot lie: an edited index whose trailer checksum is
//! recomputed (so it reads as a sound file) is refused by
//! `Hierarchy::check_graph` when an arc of the graph is lowered, raised or
//! dropped, or a shortcut's weight is edited; random edits of weights,
//! middles and the vertex order on seeded random graphs are refused or leave
//! every distance equal to the oracle's.

use sssp::ch::{self, Arcs, BuildOptions, Hierarchy, NO_MIDDLE};
use sssp::generate::{GridSpec, grid_graph};
use sssp::{Error, Graph, oracle};
use sssp_tests::{F32Weights, TempDir, TestRng, random_f32_graph, random_graph};

/// Magic, version, weight kind, graph checksum, four counts and the flags.
const HEADER_BYTES: usize = 44;

/// FNV-1a of `bytes`, the file's trailer.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Saves `h` (its trailer computed afresh), loads it and checks it against
/// `graph`: the reason of the refusal, or `None` when it is accepted.
fn verdict(graph: &Graph, h: &Hierarchy, dir: &TempDir) -> Option<String> {
    let path = dir.path("edited.ch");
    h.save(&path).expect("save");
    let loaded = match Hierarchy::load(&path) {
        Ok(loaded) => loaded,
        Err(Error::Index { reason, .. }) => return Some(reason),
        Err(other) => panic!("load: expected an index error, got {other}"),
    };
    match loaded.check_graph(graph, &path) {
        Ok(()) => None,
        Err(Error::Index { reason, .. }) => Some(reason),
        Err(other) => panic!("check: expected an index error, got {other}"),
    }
}

/// `h` edited by `edit` must be refused, the reason containing `naming`.
fn refused(graph: &Graph, h: &Hierarchy, dir: &TempDir, naming: &str, context: &str) {
    match verdict(graph, h, dir) {
        Some(reason) => {
            println!("{context}: {reason}");
            assert!(reason.contains(naming), "{context}: {reason}");
        }
        None => panic!("{context}: the edited index was accepted"),
    }
}

/// Every tree of `h` equals the oracle's.
fn exact(graph: &Graph, h: &Hierarchy) -> bool {
    let sources: Vec<usize> = (0..graph.num_vertices()).collect();
    ch::phast::trees(h, &sources)
        .iter()
        .zip(&sources)
        .all(|(tree, &s)| *tree == oracle::dijkstra(graph, s).expect("oracle"))
}

/// The arcs of `h` on one side, `up` or not, for editing.
fn side(h: &mut Hierarchy, up: bool) -> &mut Arcs {
    if up { &mut h.up } else { &mut h.down }
}

/// A random arc of `h` (side, index) whose middle satisfies `wanted`.
fn pick(rng: &mut TestRng, h: &Hierarchy, wanted: impl Fn(u32) -> bool) -> Option<(bool, usize)> {
    let arcs: Vec<(bool, usize)> = [(true, &h.up), (false, &h.down)]
        .iter()
        .flat_map(|&(up, arcs)| {
            (0..arcs.len())
                .filter(|&e| wanted(arcs.middles[e]))
                .map(move |e| (up, e))
        })
        .collect();
    (!arcs.is_empty()).then(|| arcs[rng.below(arcs.len() as u64) as usize])
}

/// `h` without arc `e` of one side.
fn drop_arc(h: &mut Hierarchy, up: bool, e: usize) {
    let arcs = side(h, up);
    arcs.ends.remove(e);
    arcs.weights.remove(e);
    arcs.middles.remove(e);
    for offset in &mut arcs.offsets {
        if *offset as usize > e {
            *offset -= 1;
        }
    }
}

/// Seeded random graphs: directed ones with parallel arcs, self-loops and
/// ties, and undirected grids (symmetric indexes).
fn graphs(rng: &mut TestRng) -> Vec<(String, Graph<'static>)> {
    let mut graphs = Vec::new();
    for case in 0..6 {
        let n = rng.range(20, 200) as usize;
        let m = rng.range(n as u64, 4 * n as u64) as usize;
        let max_weight = [3, 20, 1000][case % 3];
        graphs.push((
            format!("random graph {case} (n {n}, m {m}, weights ≤ {max_weight})"),
            random_graph(rng, n, m, max_weight),
        ));
    }
    for case in 0..2 {
        let spec = GridSpec::new(8 + case, 9, rng.bits());
        let grid = grid_graph(&spec).expect("grid");
        graphs.push((
            format!("undirected grid {case}"),
            grid.undirected().expect("undirected"),
        ));
    }
    graphs
}

#[test]
fn unedited_indexes_are_accepted() {
    let mut rng = TestRng::new("index_trust_unedited");
    let dir = TempDir::new("index_trust_unedited");
    for (context, graph) in graphs(&mut rng) {
        let h = ch::build(&graph, &BuildOptions::default()).expect("build");
        assert_eq!(verdict(&graph, &h, &dir), None, "{context}");
    }
}

/// The attack in bytes: rome99's index with one arc of the graph lowered by
/// one and the trailer recomputed reads as a sound file, gives a distance
/// shorter than the graph's, and is refused by the check against the graph.
#[test]
fn a_lowered_arc_with_its_trailer_recomputed_is_refused() {
    let path = sssp_tests::find_graph("rome99.gr");
    let graph = sssp::formats::load(&path, None)
        .and_then(|loaded| loaded.into_graph())
        .expect("rome99");
    let h = ch::build(&graph, &BuildOptions::default()).expect("build");
    let dir = TempDir::new("index_trust_bytes");
    let file = dir.path("rome99.ch");
    h.save(&file).expect("save");
    // An up arc of the graph, tight (its weight is the distance), weight > 0.
    let n = h.num_vertices();
    let e = (0..h.up.len())
        .find(|&e| {
            let (tail, head) = (arc_tail(&h.up, e), h.up.ends[e] as usize);
            let (u, v) = (h.vertex[tail] as usize, h.vertex[head] as usize);
            h.up.middles[e] == NO_MIDDLE
                && h.up.weights[e] > 0
                && oracle::dijkstra(&graph, u).expect("oracle")[v] == h.up.weights[e]
        })
        .expect("a tight arc");
    let (u, v) = (
        h.vertex[arc_tail(&h.up, e)] as usize,
        h.vertex[h.up.ends[e] as usize] as usize,
    );
    let mut bytes = std::fs::read(&file).unwrap();
    let at = HEADER_BYTES + 4 * (n + h.level_starts.len() + (n + 1) + h.up.len() + e);
    let word = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(word, h.up.weights[e]);
    bytes[at..at + 4].copy_from_slice(&(word - 1).to_le_bytes());
    let body = bytes.len() - 8;
    let trailer = fnv1a(&bytes[..body]);
    bytes[body..].copy_from_slice(&trailer.to_le_bytes());
    std::fs::write(&file, &bytes).unwrap();
    let edited = Hierarchy::load(&file).expect("the edited file reads as sound");
    let lied = ch::query::distance(&edited, u, v);
    assert!(lied < word, "the edit gives {u} → {v} distance {lied}");
    match edited.check_graph(&graph, &file) {
        Err(Error::Index { reason, .. }) => {
            println!("{reason}");
            assert!(
                reason.contains(&format!("{u} → {v}")) || reason.contains(&format!("{v} → {u}")),
                "{reason}"
            );
        }
        other => panic!("the lowered arc {u} → {v} was accepted: {other:?}"),
    }
}

/// The lower end (a position) of arc `e`.
fn arc_tail(arcs: &Arcs, e: usize) -> usize {
    arcs.offsets.partition_point(|&o| o as usize <= e) - 1
}

#[test]
fn lowered_and_raised_arcs_of_the_graph_are_refused() {
    let mut rng = TestRng::new("index_trust_arcs");
    let dir = TempDir::new("index_trust_arcs");
    for (context, graph) in graphs(&mut rng) {
        let h = ch::build(&graph, &BuildOptions::default()).expect("build");
        let Some((up, e)) = pick(&mut rng, &h, |m| m == NO_MIDDLE) else {
            continue;
        };
        let mut raised = h.clone();
        side(&mut raised, up).weights[e] += 1 + rng.below(5) as u32;
        refused(&graph, &raised, &dir, "arc", &format!("{context}: raised"));
        if h.up.weights.iter().chain(&h.down.weights).all(|&w| w == 0) {
            continue;
        }
        let Some((up, e)) = pick(&mut rng, &h, |m| m == NO_MIDDLE) else {
            continue;
        };
        let mut lowered = h.clone();
        let weight = &mut side(&mut lowered, up).weights[e];
        if *weight > 0 {
            *weight -= 1 + rng.below(*weight as u64) as u32;
            refused(
                &graph,
                &lowered,
                &dir,
                "arc",
                &format!("{context}: lowered"),
            );
        }
    }
}

#[test]
fn edited_shortcuts_are_refused() {
    let mut rng = TestRng::new("index_trust_shortcuts");
    let dir = TempDir::new("index_trust_shortcuts");
    let mut edited = 0;
    for (context, graph) in graphs(&mut rng) {
        let h = ch::build(&graph, &BuildOptions::default()).expect("build");
        let Some((up, e)) = pick(&mut rng, &h, |m| m != NO_MIDDLE) else {
            continue;
        };
        let mut raised = h.clone();
        side(&mut raised, up).weights[e] += 1;
        refused(
            &graph,
            &raised,
            &dir,
            "halves",
            &format!("{context}: raised shortcut"),
        );
        let mut lowered = h.clone();
        let weight = &mut side(&mut lowered, up).weights[e];
        if *weight > 0 {
            *weight -= 1;
            refused(
                &graph,
                &lowered,
                &dir,
                "halves",
                &format!("{context}: lowered shortcut"),
            );
        }
        edited += 1;
    }
    assert!(edited > 0, "no graph had a shortcut");
}

#[test]
fn a_dropped_arc_of_the_graph_is_refused() {
    let mut rng = TestRng::new("index_trust_dropped");
    let dir = TempDir::new("index_trust_dropped");
    for (context, graph) in graphs(&mut rng) {
        let h = ch::build(&graph, &BuildOptions::default()).expect("build");
        let Some((up, e)) = pick(&mut rng, &h, |m| m == NO_MIDDLE) else {
            continue;
        };
        let mut dropped = h.clone();
        drop_arc(&mut dropped, up, e);
        // Refused for the arc left out, or for a shortcut that lost a half.
        refused(
            &graph,
            &dropped,
            &dir,
            "arc",
            &format!("{context}: dropped"),
        );
    }
}

/// Random edits of weights, middles and the vertex order: each is refused
/// or gives every distance the oracle gives.
#[test]
fn random_edits_are_refused_or_harmless() {
    let mut rng = TestRng::new("index_trust_random");
    let dir = TempDir::new("index_trust_random");
    let (mut refusals, mut edits) = (0, 0);
    for (context, graph) in graphs(&mut rng) {
        let h = ch::build(&graph, &BuildOptions::default()).expect("build");
        let n = h.num_vertices();
        for round in 0..12 {
            let mut edited = h.clone();
            let what = match (round % 3, pick(&mut rng, &h, |_| true)) {
                (0, Some((up, e))) => {
                    let weight = &mut side(&mut edited, up).weights[e];
                    *weight = rng.below(*weight as u64 + 3) as u32;
                    format!("weight of arc {e}")
                }
                (1, Some((up, e))) => {
                    side(&mut edited, up).middles[e] = rng.below(n as u64) as u32;
                    format!("middle of arc {e}")
                }
                _ => {
                    let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                    edited.vertex.swap(a, b);
                    let (va, vb) = (edited.vertex[a] as usize, edited.vertex[b] as usize);
                    (edited.position[va], edited.position[vb]) = (a as u32, b as u32);
                    format!("positions {a} and {b} swapped")
                }
            };
            if edited == h {
                continue;
            }
            edits += 1;
            match verdict(&graph, &edited, &dir) {
                Some(_) => refusals += 1,
                None => assert!(
                    exact(&graph, &edited),
                    "{context}: {what}: accepted, and a distance is wrong"
                ),
            }
        }
    }
    println!("{refusals} of {edits} edits refused, the others harmless");
    assert!(refusals > 0);
}

/// `f32` indexes: accepted as built (each shortcut's word is its halves'
/// `f64` lengths summed and rounded once, as the build rounds it), and
/// refused with any word of an arc one ulp off.
#[test]
fn f32_words_one_ulp_off_are_refused() {
    let mut rng = TestRng::new("index_trust_f32");
    let dir = TempDir::new("index_trust_f32");
    let mut shortcuts = 0;
    for style in F32Weights::ALL {
        for case in 0..3 {
            let n = rng.range(20, 150) as usize;
            let m = rng.range(n as u64, 4 * n as u64) as usize;
            let graph = random_f32_graph(&mut rng, n, m, style);
            let context = format!("{style:?} graph {case} (n {n}, m {m})");
            let Ok(h) = ch::build(&graph, &BuildOptions::default()) else {
                continue; // sums beyond f32::MAX: no index
            };
            assert_eq!(verdict(&graph, &h, &dir), None, "{context}");
            for wanted in [|m| m == NO_MIDDLE, |m| m != NO_MIDDLE] {
                let Some((up, e)) = pick(&mut rng, &h, wanted) else {
                    continue;
                };
                let arcs = if up { &h.up } else { &h.down };
                shortcuts += usize::from(arcs.middles[e] != NO_MIDDLE);
                for step in [1i64, -1] {
                    let mut edited = h.clone();
                    let word = &mut side(&mut edited, up).weights[e];
                    if *word == 0 && step < 0 {
                        continue;
                    }
                    *word = (*word as i64 + step) as u32;
                    refused(
                        &graph,
                        &edited,
                        &dir,
                        "arc",
                        &format!("{context}: {step} ulp"),
                    );
                }
            }
        }
    }
    assert!(shortcuts > 0, "no f32 graph had a shortcut");
}
