//! `--verify` and `--certify`: each solved row checked against the oracle or
//! a certificate, and the verdicts printed.

use std::time::Instant;

use sssp::formats::InputNumbering;
use sssp::graph::WeightKind;
use sssp::options::Stop;
use sssp::solver::SourceSolution;
use sssp::{Error, Graph, Result, distances, oracle, parents};

use super::report::Human;
use super::solve_args::SolveArgs;

/// One source's solve and, when asked for, its tree.
pub struct SolvedRow {
    pub row: SourceSolution,
    pub tree: Option<Vec<u32>>,
}

/// The oracle's distances for `--verify`, solved once per source and kept
/// for every algorithm, bounded like the solves.
pub struct Verifier<'g> {
    enabled: bool,
    /// The input's first vertex id, for messages.
    base: u32,
    graph: &'g Graph<'g>,
    stop: Stop,
    expected: Vec<Option<Vec<u32>>>,
    sources: Vec<usize>,
}

impl<'g> Verifier<'g> {
    pub fn new(
        enabled: bool,
        graph: &'g Graph<'g>,
        sources: &[usize],
        stop: Stop,
        base: u32,
    ) -> Self {
        Verifier {
            enabled,
            base,
            graph,
            stop,
            expected: vec![None; sources.len()],
            sources: sources.to_vec(),
        }
    }

    /// The oracle's distances from `source` (bounded by the query's stop).
    pub fn expected(&mut self, source: usize, out: &Human) -> Result<&[u32]> {
        let slot = self
            .sources
            .iter()
            .position(|&s| s == source)
            .ok_or_else(|| Error::InvalidArgument(format!("{source} is not a source")))?;
        if self.expected[slot].is_none() {
            let start = Instant::now();
            let mut dist = oracle::dijkstra(self.graph, source)?;
            // For f32 the oracle's distances must also be within rounding
            // of the exact (f64) lengths: equality with the f32 oracle
            // alone would not catch a rounding error shared by both. Once
            // per graph and source: every run is then compared with them exactly.
            if self.graph.weight_kind() == WeightKind::F32 {
                oracle::check_f32_against_f64(self.graph, source, &dist)?;
            }
            self.stop.apply(&mut dist);
            self.expected[slot] = Some(dist);
            out.line(format_args!(
                "oracle       {:.1} ms (CPU Dijkstra)",
                start.elapsed().as_secs_f64() * 1e3
            ));
        }
        Ok(self.expected[slot].as_deref().unwrap_or_default())
    }
}

/// What `--verify` and `--certify` said of one row.
pub struct RowCheck {
    pub verdict: String,
    pub verified: Option<bool>,
    pub mismatches: Option<usize>,
    pub tree_verified: Option<bool>,
    pub failure: Option<Error>,
}

impl RowCheck {
    /// The check of a row whose one verification (with `--verify`) gave
    /// `failure`.
    pub fn of(failure: Option<Error>) -> RowCheck {
        let mismatches = match &failure {
            Some(Error::Mismatch { count, .. }) => *count,
            _ => 0,
        };
        RowCheck {
            verdict: if failure.is_none() {
                "verified".into()
            } else {
                format!("{mismatches} wrong")
            },
            verified: Some(failure.is_none()),
            mismatches: Some(mismatches),
            tree_verified: None,
            failure,
        }
    }
}

/// Whether a verdict is a pass (or no check).
pub fn is_success(verdict: &str) -> bool {
    matches!(verdict, "-" | "verified" | "certified")
}

/// Checks one row with `--certify` and `--verify`, printing the verdicts.
pub fn check_row(
    args: &SolveArgs,
    graph: &Graph,
    verifier: &mut Verifier,
    solved: &SolvedRow,
    out: &Human,
) -> Result<RowCheck> {
    let (row, kind) = (&solved.row, graph.weight_kind());
    let mut check = RowCheck {
        verdict: "-".into(),
        verified: None,
        mismatches: None,
        tree_verified: None,
        failure: None,
    };
    if args.certify {
        let start = Instant::now();
        let result = if verifier.stop.is_bounded() {
            Err(Error::InvalidArgument(
                "--certify checks complete distances; with --limit or --target use --verify".into(),
            ))
        } else {
            distances::certify(graph, row.source, &row.dist)
        };
        let ms = start.elapsed().as_secs_f64() * 1e3;
        match result {
            Ok(()) => {
                out.line(format_args!(
                    "certified: all {} distances are shortest ({ms:.1} ms, CPU certificate)",
                    row.dist.len()
                ));
                check.verdict = "certified".into();
                check.verified = Some(true);
            }
            Err(wrong) => {
                out.line(format_args!("NOT certified: {wrong}"));
                check.verdict = "not certified".into();
                check.verified = Some(false);
                check.failure = Some(wrong);
            }
        }
    }
    if verifier.enabled {
        let base = verifier.base;
        let expected = verifier.expected(row.source, out)?;
        let what = match kind {
            WeightKind::U32 => "the oracle's",
            WeightKind::F32 => "the f32 oracle's and are within f32 rounding of the f64 oracle's",
        };
        match distances::compare(kind, expected, &row.dist) {
            Ok(()) => {
                out.line(format_args!(
                    "verified: all {} distances equal {what}",
                    row.dist.len()
                ));
                check.verdict = "verified".into();
                (check.verified, check.mismatches) = (Some(true), Some(0));
            }
            Err(mismatch) => {
                let mismatch = mismatch.renumbered(base);
                out.line(format_args!("NOT verified: {mismatch}"));
                let count = match &mismatch {
                    Error::Mismatch { count, .. } => *count,
                    _ => row.dist.len(),
                };
                check.verdict = format!("{count} wrong");
                (check.verified, check.mismatches) = (Some(false), Some(count));
                check.failure.get_or_insert(mismatch);
            }
        }
        if let Some(tree) = &solved.tree {
            match parents::check(graph, row.source, expected, tree) {
                Ok(()) => {
                    out.line("verified: the tree is the one the oracle's distances give");
                    check.tree_verified = Some(true);
                }
                Err(wrong) => {
                    let wrong = wrong.renumbered(base);
                    out.line(format_args!("NOT verified: {wrong}"));
                    check.tree_verified = Some(false);
                    check.failure.get_or_insert(wrong);
                }
            }
        }
    }
    Ok(check)
}

/// Prints the verdict of a check, `verified` when it passed: a mismatch is
/// the failure to report (in the input's numbering); other errors end the run.
pub fn report_check(
    result: Result<()>,
    verified: &str,
    numbering: InputNumbering,
    out: &Human,
) -> Result<Option<Error>> {
    match result {
        Ok(()) => {
            out.line(format_args!("verified: {verified}"));
            Ok(None)
        }
        Err(mismatch @ Error::Mismatch { .. }) => {
            let mismatch = mismatch.renumbered(numbering.base);
            out.line(format_args!("NOT verified: {mismatch}"));
            Ok(Some(mismatch))
        }
        Err(other) => Err(other),
    }
}

/// What a passed check of `count` distances of an `f32` index says
/// ([`oracle::check_f32_index`]).
pub fn index_verdict(count: usize) -> String {
    format!("all {count} distances are within the index's f32 rounding bound of the f64 oracle's")
}

#[cfg(test)]
mod tests {
    use clap::Parser;
    use sssp::options::Device;
    use sssp::solver::{Query, Solver};

    use super::*;

    #[derive(Parser)]
    struct Wrapped {
        #[command(flatten)]
        args: SolveArgs,
    }

    /// `--verify` of a row one word off, and of a row with a reached vertex
    /// reported unreached: not verified, the wrong count given, the
    /// mismatch kept as the row's failure (so the run exits with 1).
    #[test]
    fn verify_reports_a_wrong_row() {
        let args = Wrapped::parse_from(["host", "--graph", "g.gr", "--verify"]).args;
        let graph = Graph::from_edges(4, &[(0, 1, 5), (1, 2, 7), (0, 3, 1)]).expect("a graph");
        let out = Human { quiet: true };
        let mut verifier = Verifier::new(true, &graph, &[0], Stop::default(), 1);
        let solver = Solver::new(Device::Cpu).expect("a CPU solver");
        let solution = solver
            .solve(&graph, &Query::from_sources([0]))
            .expect("solves");
        let good = solution.rows[0].clone();
        assert_eq!(good.dist, [0, 5, 12, 1]);
        let wrongs = [(vec![0, 5, 13, 1], 3), (vec![0, 5, 12, u32::MAX], 4)];
        let solved = |dist: Vec<u32>| {
            let mut row = good.clone();
            row.dist = dist;
            SolvedRow { row, tree: None }
        };
        let check = check_row(
            &args,
            &graph,
            &mut verifier,
            &solved(good.dist.clone()),
            &out,
        )
        .expect("checks");
        assert_eq!((check.verified, check.mismatches), (Some(true), Some(0)));
        assert!(is_success(&check.verdict));
        for (wrong, vertex) in wrongs {
            let check = check_row(&args, &graph, &mut verifier, &solved(wrong.clone()), &out)
                .expect("checks");
            assert_eq!(
                (check.verified, check.mismatches),
                (Some(false), Some(1)),
                "{wrong:?}"
            );
            assert_eq!(check.verdict, "1 wrong");
            assert!(!is_success(&check.verdict));
            match check.failure {
                // Numbered as the input is (1-based here).
                Some(Error::Mismatch {
                    vertex: v,
                    count: 1,
                    ..
                }) => assert_eq!(v, vertex),
                other => panic!("{wrong:?}: {other:?}"),
            }
        }
    }
}
