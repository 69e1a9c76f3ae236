//! The socket side of the hub: everything that speaks WebSocket, above the live rooms
//! ([`crate::live`]), which know nothing of sockets.
//!
//! - [`connection`]: one participant's session (hello, welcome or replay, heartbeats,
//!   frames in, replies out). It decides nothing.
//! - [`gate`]: what an inbound request passes before its room sees it (the "slide changes
//!   first" wait and the rate limits).
//! - [`rate`]: the rate limits themselves, pure.
//! - [`fanout`]: the writer tasks that write the rooms' queued frames on the sockets.
//!
//! **Invariant:** `ws` imports `live`; `live` never imports `ws` (the room reaches a
//! socket only through [`crate::live::outbound::Outlet`]).

pub mod connection;
pub mod fanout;
pub mod gate;
pub mod rate;
