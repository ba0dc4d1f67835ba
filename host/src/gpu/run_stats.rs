//! What one GPU solve reports besides its distances ([`RunStats`]).

/// What one GPU solve reports besides the distances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunStats {
    /// Iterations of the algorithm's main loop (rounds, for Bellman-Ford).
    pub iterations: u32,
    /// GPU time of the whole solve, from CUDA events recorded around it.
    pub solve_ms: f32,
}
