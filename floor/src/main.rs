//! The floor server (see the library's documentation): started as the hub is by
//! `scripts/bench.sh`, on `BIND` (127.0.0.1) and `HUB_PORT` (8100); the hub's other
//! settings (`HUB_SECRET`, `DATA_DIR`, …) are not read.

use std::net::{IpAddr, SocketAddr};

fn main() {
    let env = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.into());
    let bind: IpAddr = env("BIND", "127.0.0.1")
        .parse()
        .expect("BIND: an IP address");
    let port: u16 = env("HUB_PORT", "8100").parse().expect("HUB_PORT: a port");
    raise_file_limit();
    let floor = floor::Floor::bind(SocketAddr::new(bind, port)).expect("the floor's port");
    eprintln!("floor: listening on {}", floor.local_addr().expect("bound"));
    if let Err(error) = floor.run() {
        eprintln!("floor: {error}");
        std::process::exit(1);
    }
}

/// Open files up to the hard limit: one per connection.
fn raise_file_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is valid for both calls.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}
