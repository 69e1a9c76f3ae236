//! Wire types shared by the hub, storefront-proxy, loadtest and (through the generated
//! TypeScript in `web/src/protocol/generated.ts`) the web app.
//!
//! - [`frame`]: the WebSocket frames in both directions.
//! - [`state`]: the live presentation state (`stateForAll`, `stateForClients`,
//!   `stateForGuides`, field names as in the DSR reference schema).
//! - [`action`]: the interaction action keys and the reference interaction names.
//! - [`status`]: attendee, connection, cart-permission and invitation states.
//! - [`codec`]: JSON (text frames) and MessagePack (binary frames).
//! - [`token`]: the hub session token the proxy mints at join and the hub verifies.
//! - [`engagement`]: chat messages, chat moderation and reactions (issue #19).
//! - [`live_state`]: the one reducer of live state, and its golden cases for the web.
//! - [`session`]: what the reducer keeps of a session for its report.

pub mod action;
pub mod codec;
pub mod engagement;
pub mod frame;
pub mod internal;
pub mod live_state;
pub mod session;
pub mod state;
pub mod status;
pub mod token;
pub mod typescript;

pub use action::{Action, Interaction, InteractionName};
pub use codec::{Codec, DecodeError};
pub use frame::{ClientFrame, ErrorCode, Event, ServerFrame, VolatileEvent};
pub use state::{Snapshot, StateForAll, StateForClients, StateForGuides};
pub use status::{AttendeeStatus, CartPermission, ConnectionState, InvitationAnswer, Role};
pub use token::{HubClaims, TokenError};
