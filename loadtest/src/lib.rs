//! Joins one guide and many attendees through the real REST join and WebSocket paths,
//! lets the guide switch slides (and highlight products) at a set rate, and measures
//! join rate, how long each change takes to reach each attendee, deliveries per second,
//! errors, the hubs' memory per connection and the CPU time hub and generator spend.
//!
//! A run can be split over several processes (`--shard I/N`): each joins its share of
//! the attendees, shard 0 is also the guide, and `--merge` makes one report of their
//! `--out` files. Every slide change carries its send time (Unix microseconds) in its
//! section id, so any process on the machine can time it.

pub mod engagement;
pub mod media;
pub mod report;
pub mod shop;

mod attendee;
mod guide;
mod join;
mod measure;
mod options;
mod peek;
mod run;
mod socket;

pub use options::{Options, Shard};
pub use report::{Continuity, Percentiles, Report, Times};
pub use run::run;
