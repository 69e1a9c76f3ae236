//! The load generator's command line ([`Options`]) and a run's share of the attendees
//! when it is split over several processes ([`Shard`]).

use std::path::PathBuf;

/// This process's part of a run split over several load generators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/N`, e.g. `0/3`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (index, count) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?}: expected I/N, e.g. 0/3"))?;
        let index: usize = index
            .trim()
            .parse()
            .map_err(|_| format!("{s:?}: I is not a number"))?;
        let count: usize = count
            .trim()
            .parse()
            .map_err(|_| format!("{s:?}: N is not a number"))?;
        if index >= count {
            return Err(format!("{s:?}: I must be below N"));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Shard 0 joins the guide and switches the slides.
    pub fn is_guide(&self) -> bool {
        self.index == 0
    }

    /// The numbers (of all `clients`) of the attendees this shard joins.
    pub fn attendees(&self, clients: usize) -> impl Iterator<Item = usize> {
        (self.index..clients).step_by(self.count)
    }
}

#[derive(Debug, Clone, clap::Parser)]
#[command(name = "loadtest", about = "Salesroom load test")]
pub struct Options {
    /// The public origin (storefront-proxy), for the REST joins.
    #[arg(long, default_value = "http://127.0.0.1:8000")]
    pub base_url: String,
    /// Connect the sockets here instead of the join response's `hubUrl` (e.g. straight
    /// to a hub, `ws://127.0.0.1:8100/ws`). Several, comma-separated, are used in turn.
    #[arg(long, value_delimiter = ',')]
    pub hub_url: Vec<String>,
    /// The hubs' `/metrics` (comma-separated): memory per connection, CPU time, and
    /// when the joins have settled.
    #[arg(long, value_delimiter = ',')]
    pub hub_metrics: Vec<String>,
    #[arg(long, default_value = "SWSCSALESROOMDEMO000000000")]
    pub access_key: String,
    #[arg(long, default_value = "demo")]
    pub presentation_path: String,
    /// Simulated attendees (of all shards).
    #[arg(long, default_value_t = 50)]
    pub clients: usize,
    /// Local addresses 127.0.0.1 … 127.0.0.N to spread connections over (each has its
    /// own ~28,000 ephemeral ports).
    #[arg(long, default_value_t = 1)]
    pub source_addresses: u8,
    /// Joins in flight at once.
    #[arg(long, default_value_t = 64)]
    pub join_concurrency: usize,
    /// Slide changes the guide makes.
    #[arg(long, default_value_t = 50)]
    pub slides: u32,
    /// Pause between slide changes.
    #[arg(long, default_value_t = 100)]
    pub interval_ms: u64,
    /// Highlight a product after every this many slide changes (0: never).
    #[arg(long, default_value_t = 5)]
    pub highlight_every: u32,
    /// Seconds to hold the idle connections, once the joins settled, before the slide
    /// changes (memory reading).
    #[arg(long, default_value_t = 2)]
    pub hold_secs: u64,
    /// The first this many slide changes are reported apart ("right after the joins");
    /// the rest is the steady state.
    #[arg(long, default_value_t = 5)]
    pub first_slides: u32,
    /// `I/N`: join the attendees whose number modulo N is I; shard 0 is the guide and
    /// starts the slide changes once the hubs hold every shard's attendees.
    #[arg(long, default_value = "0/1")]
    pub shard: Shard,
    /// Also write the report with every latency to this file, for `--merge`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Instead of a run: one report of these `--out` files (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub merge: Vec<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Survive the hubs going away (drains, crashes, a Redis restart): attendees
    /// reconnect and resume from their last `seq` when their socket closes, and the guide
    /// retries each slide change until it is acknowledged. Every attendee's events are
    /// checked for continuity either way (`continuity` in the report).
    #[arg(long)]
    pub resume: bool,
    /// Exit with a failure unless every attendee joined, received every event exactly
    /// once and in order, and ended on the last slide.
    #[arg(long)]
    pub strict: bool,
    /// Engagement (issue #19): chat messages per second the attendees send while the
    /// guide changes slides (see [`crate::engagement`]).
    #[arg(long, default_value_t = 0.0)]
    pub chat_per_sec: f64,
    /// Engagement: reaction taps per second the attendees send.
    #[arg(long, default_value_t = 0.0)]
    pub reactions_per_sec: f64,
    /// Engagement: the guide opens a poll with the first slide change and this many
    /// attendees (of all shards) vote once each within the window.
    #[arg(long, default_value_t = 0)]
    pub poll_votes: usize,
    /// Engagement: the seconds the votes, chats and reactions are spread over, from the
    /// poll's opening (let the slide changes last as long).
    #[arg(long, default_value_t = 10.0)]
    pub poll_window_secs: f64,
    /// The hubs' shared secret: with engagement, the poll as the hub stored it is read
    /// through `GET /internal/appointments/{id}/state` next to the `--hub-metrics` URL.
    #[arg(long, env = "HUB_SECRET", hide_env_values = true)]
    pub hub_secret: Option<String>,
    /// Keep the generator's runtime from ever sleeping (a task per worker that yields in
    /// a loop), so that the hub's loopback writes do not pay for waking it: on loopback
    /// the kernel wakes the receiving process in the sender's system call, a cost a real
    /// room's browsers, on other machines, never put on the hub. Burns the generator's
    /// cores: use it only with the generator pinned to cores of its own
    /// (`LOADTEST_CPUS`).
    #[arg(long)]
    pub busy_poll: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_attendees_without_overlap() {
        let shards: Vec<Shard> = ["0/3", "1/3", "2/3"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let mut all: Vec<usize> = shards.iter().flat_map(|s| s.attendees(10)).collect();
        all.sort();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert!(shards[0].is_guide() && !shards[1].is_guide());
        assert_eq!("0/1".parse::<Shard>(), Ok(Shard::default()));
        for bad in ["3/3", "1", "a/2", "0/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
