//! The graph as GAPBS's `sssp` loads it fastest: its serialized weighted
//! format (`.wsg`), read in one pass with no parsing, so that a Δ sweep of
//! fifteen runs on a graph of tens of millions of arcs costs seconds, not the
//! minutes of re-parsing a text edge list for every run.
//!
//! The file holds what GAPBS's builder makes of an edge list (`SquishCSR` in
//! its `builder.h`): each vertex's arcs sorted by target, one arc per target
//! (the lightest: the builder sorts by target, then weight, and keeps the
//! first), no self-loops. Shortest-path distances are those of the graph the
//! project solves, and GAPBS times the same graph it would build from the
//! `.wel` file this module replaces.
//!
//! Layout (GAPBS `reader.h`, `ReadSerializedGraph`, 32-bit ids and weights):
//! `bool directed` (one byte, 1), `i64 num_edges`, `i64 num_nodes`, the
//! out-offsets (`num_nodes + 1` × `i64`), the out-arcs (`num_edges` × (`i32`
//! target, `i32` weight)), then the same two arrays for the in-arcs (GAPBS's
//! weighted graph keeps both directions), all little-endian.

use std::io::Write;
use std::path::Path;

use sssp::graph::{Graph, WeightKind};
use sssp::{Error, Result};

/// `graph`'s out-arcs as GAPBS's builder leaves them: per vertex sorted by
/// target, the lightest arc to each target, no self-loops. Fails where GAPBS's
/// 32-bit ids or weights cannot hold the graph, or its weights are `f32`.
pub fn squish(graph: &Graph) -> Result<Graph<'static>> {
    let n = graph.num_vertices();
    if graph.weight_kind() == WeightKind::F32 {
        return Err(Error::InvalidArgument(
            "GAPBS's serialized graph takes integer weights only; this graph's are f32".into(),
        ));
    }
    if n > i32::MAX as usize {
        return Err(Error::InvalidArgument(format!(
            "GAPBS's serialized graph holds at most {} vertices (32-bit ids); this graph has {n}",
            i32::MAX
        )));
    }
    let csr = graph.csr();
    let mut offsets = Vec::with_capacity(n + 1);
    let (mut targets, mut weights) = (Vec::new(), Vec::new());
    let mut row: Vec<(usize, u32)> = Vec::new();
    offsets.push(0);
    for u in 0..n {
        row.clear();
        row.extend(csr.edges(u).filter(|&(v, _)| v != u));
        row.sort_unstable();
        row.dedup_by_key(|&mut (v, _)| v);
        for &(v, w) in &row {
            if i32::try_from(w).is_err() {
                return Err(Error::InvalidArgument(format!(
                    "GAPBS's serialized graph takes weights up to {} (32-bit); arc {u} -> {v} weighs {w}",
                    i32::MAX
                )));
            }
            targets.push(v as u32);
            weights.push(w);
        }
        offsets.push(targets.len() as u32);
    }
    Graph::new(offsets, targets, weights)
        .map_err(|defect| Error::InvalidArgument(format!("the squished graph: {defect}")))
}

/// Writes `graph` to `out` in GAPBS's `.wsg` layout (see the module docs);
/// `path` names `out` in errors. The in-arcs are [`Graph::transpose`]'s,
/// each list in the order of its tails, as GAPBS's builder sorts them.
pub fn write_wsg(mut out: impl Write, graph: &Graph, path: &Path) -> Result<()> {
    let forward = squish(graph)?;
    let backward = forward.transpose();
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let num_nodes = forward.num_vertices() as i64;
    let num_edges = forward.num_edges() as i64;
    out.write_all(&[1u8]).map_err(io)?;
    out.write_all(&num_edges.to_le_bytes()).map_err(io)?;
    out.write_all(&num_nodes.to_le_bytes()).map_err(io)?;
    for direction in [&forward, &backward] {
        let mut bytes = Vec::with_capacity(direction.offsets().len() * 8);
        for &offset in direction.offsets() {
            bytes.extend_from_slice(&i64::from(offset).to_le_bytes());
        }
        out.write_all(&bytes).map_err(io)?;
        // Arcs in chunks: a graph of 10^8 arcs would need 800 MB at once.
        // Ids and weights fit `i32` (checked by [`squish`]), so their `u32` bytes
        // are GAPBS's `int32_t`s.
        const CHUNK: usize = 1 << 16;
        for (heads, weights) in direction
            .targets()
            .chunks(CHUNK)
            .zip(direction.weights().chunks(CHUNK))
        {
            bytes.clear();
            for (&v, &w) in heads.iter().zip(weights) {
                bytes.extend_from_slice(&v.to_le_bytes());
                bytes.extend_from_slice(&w.to_le_bytes());
            }
            out.write_all(&bytes).map_err(io)?;
        }
    }
    out.flush().map_err(io)
}

/// The `.wsg` file handed to GAPBS, decoded byte by byte and compared with a
/// model of GAPBS's builder (lightest arc per target, no self-loops, both
/// directions); the distances it implies equal the oracle's on the original
/// graph.
#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use gpu_kernels::distance::INFINITY;
    use sssp::{Error, Graph};
    use sssp_tests::{TestRng, random_graph};

    use super::write_wsg;

    /// A decoded `.wsg`: directed flag, node count, out and in CSR.
    struct Wsg {
        directed: bool,
        num_nodes: usize,
        out: Vec<BTreeMap<i32, i32>>,
        inn: Vec<BTreeMap<i32, i32>>,
        out_order_sorted: bool,
    }

    /// Reads little-endian words off the front of a byte slice.
    struct Cursor<'a>(&'a [u8]);

    impl Cursor<'_> {
        fn take<const K: usize>(&mut self) -> [u8; K] {
            let (head, rest) = self.0.split_at(K);
            self.0 = rest;
            head.try_into().unwrap()
        }
        fn i64(&mut self) -> i64 {
            i64::from_le_bytes(self.take())
        }
        fn i32(&mut self) -> i32 {
            i32::from_le_bytes(self.take())
        }
        /// One direction: per vertex its (neighbour, weight) map; whether every
        /// row was sorted by neighbour.
        fn direction(
            &mut self,
            num_nodes: usize,
            num_edges: usize,
        ) -> (Vec<BTreeMap<i32, i32>>, bool) {
            let offsets: Vec<usize> = (0..=num_nodes).map(|_| self.i64() as usize).collect();
            assert_eq!(offsets[0], 0);
            assert_eq!(offsets[num_nodes], num_edges);
            assert!(offsets.windows(2).all(|w| w[0] <= w[1]));
            let arcs: Vec<(i32, i32)> = (0..num_edges).map(|_| (self.i32(), self.i32())).collect();
            let mut sorted = true;
            let rows = (0..num_nodes)
                .map(|u| {
                    let row = &arcs[offsets[u]..offsets[u + 1]];
                    sorted &= row.windows(2).all(|w| w[0].0 < w[1].0);
                    let map: BTreeMap<i32, i32> = row.iter().copied().collect();
                    assert_eq!(map.len(), row.len(), "vertex {u} lists a neighbour twice");
                    map
                })
                .collect();
            (rows, sorted)
        }
    }

    fn decode(bytes: &[u8]) -> Wsg {
        let mut cursor = Cursor(bytes);
        let [directed] = cursor.take::<1>();
        assert!(directed <= 1, "bool byte {directed}");
        let num_edges = cursor.i64() as usize;
        let num_nodes = cursor.i64() as usize;
        let (out, out_sorted) = cursor.direction(num_nodes, num_edges);
        let (inn, _) = cursor.direction(num_nodes, num_edges);
        assert!(cursor.0.is_empty(), "trailing bytes");
        Wsg {
            directed: directed == 1,
            num_nodes,
            out,
            inn,
            out_order_sorted: out_sorted,
        }
    }

    fn encode(graph: &Graph) -> sssp::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        write_wsg(&mut bytes, graph, Path::new("test.wsg"))?;
        Ok(bytes)
    }

    /// Dijkstra on the decoded out-arcs.
    fn distances(wsg: &Wsg, source: usize) -> Vec<u64> {
        let mut dist = vec![u64::MAX; wsg.num_nodes];
        let mut heap = std::collections::BinaryHeap::new();
        dist[source] = 0;
        heap.push(std::cmp::Reverse((0u64, source)));
        while let Some(std::cmp::Reverse((d, u))) = heap.pop() {
            if d > dist[u] {
                continue;
            }
            for (&v, &w) in &wsg.out[u] {
                let nd = d + w as u64;
                if nd < dist[v as usize] {
                    dist[v as usize] = nd;
                    heap.push(std::cmp::Reverse((nd, v as usize)));
                }
            }
        }
        dist
    }

    #[test]
    fn wsg_holds_the_lightest_arc_per_pair_in_both_directions() {
        let mut rng = TestRng::new("wsg_holds_the_lightest_arc_per_pair_in_both_directions");
        for round in 0..200 {
            let n = 1 + rng.below(60) as usize;
            // Dense enough for parallel arcs and self-loops in most rounds.
            let m = rng.below(4 * n as u64 + 1) as usize;
            let max_weight = rng.below(2_000) as u32;
            let graph = random_graph(&mut rng, n, m, max_weight);
            let context = format!("seed {}, round {round}, n {n}, m {m}", rng.seed);
            let wsg = decode(&encode(&graph).unwrap());
            assert!(wsg.directed, "{context}");
            assert_eq!(wsg.num_nodes, n, "{context}");
            assert!(
                wsg.out_order_sorted,
                "{context}: out-arcs not sorted by target"
            );
            let mut lightest: Vec<BTreeMap<i32, i32>> = vec![BTreeMap::new(); n];
            let csr = graph.csr();
            for (u, row) in lightest.iter_mut().enumerate() {
                for (v, w) in csr.edges(u).filter(|&(v, _)| v != u) {
                    let entry = row.entry(v as i32).or_insert(w as i32);
                    *entry = (*entry).min(w as i32);
                }
            }
            assert_eq!(wsg.out, lightest, "{context}: out-arcs");
            for (u, row) in lightest.iter().enumerate() {
                for (&v, &w) in row {
                    assert_eq!(
                        wsg.inn[v as usize].get(&(u as i32)),
                        Some(&w),
                        "{context}: in-arc {u} -> {v}"
                    );
                }
            }
            let in_arcs: usize = wsg.inn.iter().map(BTreeMap::len).sum();
            let out_arcs: usize = wsg.out.iter().map(BTreeMap::len).sum();
            assert_eq!(in_arcs, out_arcs, "{context}");
            let source = rng.below(n as u64) as usize;
            let expected = sssp::oracle::dijkstra(&graph, source).unwrap();
            let found = distances(&wsg, source);
            for v in 0..n {
                let want = if expected[v] == INFINITY {
                    u64::MAX
                } else {
                    expected[v] as u64
                };
                assert_eq!(found[v], want, "{context}: vertex {v} from {source}");
            }
        }
    }

    #[test]
    fn wsg_refuses_what_gapbs_cannot_hold() {
        let heavy = Graph::from_edges(2, &[(0, 1, i32::MAX as u32 + 1)]).unwrap();
        match encode(&heavy) {
            Err(Error::InvalidArgument(message)) => {
                assert!(
                    message.contains("0 -> 1") && message.contains("2147483648"),
                    "{message}"
                )
            }
            other => panic!("expected a refusal, got {:?}", other.map(|b| b.len())),
        }
        let at_limit = Graph::from_edges(2, &[(0, 1, i32::MAX as u32)]).unwrap();
        assert!(encode(&at_limit).is_ok());
        let real = Graph::from_f32_weights(
            Graph::from_edges(2, &[(0, 1, 0)])
                .unwrap()
                .offsets()
                .to_vec(),
            vec![1],
            &[0.5],
        )
        .unwrap();
        match encode(&real) {
            Err(Error::InvalidArgument(message)) => assert!(message.contains("f32"), "{message}"),
            other => panic!("expected a refusal, got {:?}", other.map(|b| b.len())),
        }
    }
}
