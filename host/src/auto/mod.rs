//! `--algo auto`: the algorithm chosen by a probe of the graph
//! ([`choice`]), and on a GPU the fastest of a trial from the source
//! ([`trial`]).

pub mod choice;
pub mod plan;
pub mod trial;
