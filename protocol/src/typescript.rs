//! The TypeScript declarations of every wire type, for `web/src/protocol/generated.ts`.
//! `cargo test -p protocol` fails when the committed file differs from [`typescript`];
//! `make protocol-ts` rewrites it.

use ts_rs::{Config, TS};

use crate::{action, engagement, frame, session, state, status};

/// Where the generated file lives, relative to the workspace root.
pub const GENERATED_PATH: &str = "web/src/protocol/generated.ts";

macro_rules! declarations {
    ($cfg:expr; $($ty:ty),* $(,)?) => {
        vec![$(format!("export {}", <$ty as TS>::decl($cfg))),*]
    };
}

/// The whole generated TypeScript file.
pub fn typescript() -> String {
    // Sequence numbers and nonces stay far below 2^53, so plain numbers are exact.
    let cfg = &Config::new().with_large_int("number");
    let decls = declarations![cfg;
        status::Role,
        status::AttendeeStatus,
        status::ConnectionState,
        status::CartPermission,
        status::InvitationAnswer,
        state::AppointmentMode,
        state::VideoAudioSettings,
        state::AttendeeRestrictionType,
        state::ViewMode,
        state::DynamicPage,
        state::SlideData,
        engagement::ChatMessage,
        engagement::ChatSettings,
        engagement::ChatState,
        engagement::ChatModeration,
        engagement::Reaction,
        engagement::ReactionCounts,
        engagement::polls::PollStatus,
        engagement::polls::PollSlide,
        engagement::polls::PollAnswer,
        engagement::polls::Poll,
        engagement::polls::NewPoll,
        session::SessionSample,
        engagement::questions::QuestionStatus,
        engagement::questions::Question,
        state::StateForAll,
        state::StateForClients,
        state::AttendeeSummary,
        state::StateForGuides,
        state::Snapshot,
        action::Action,
        action::Empty,
        action::ProductPayload,
        action::DynamicPageClosedPayload,
        action::PageViewedPayload,
        action::GuideHoveredPayload,
        action::TogglePayload,
        action::ViewModePayload,
        action::Interaction,
        action::InteractionName,
        frame::ClientFrame,
        frame::Resume,
        frame::AppointmentSettings,
        frame::Collection,
        frame::Event,
        frame::VolatileEvent,
        frame::ErrorCode,
        frame::ServerFrame,
    ];
    let mut out = String::from(
        "// Generated from the Rust crate `protocol` (protocol/src/typescript.rs).\n\
         // Do not edit: run `make protocol-ts` after changing the Rust types.\n\n\
         export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]?: JsonValue } | null;\n\n",
    );
    for decl in decls {
        out.push_str(&decl);
        out.push_str("\n\n");
    }
    out.push_str(&format!(
        "export const SUBPROTOCOL_JSON = {:?};\nexport const SUBPROTOCOL_MSGPACK = {:?};\nexport const TOKEN_SUBPROTOCOL_PREFIX = {:?};\n\n",
        frame::SUBPROTOCOL_JSON,
        frame::SUBPROTOCOL_MSGPACK,
        frame::TOKEN_SUBPROTOCOL_PREFIX
    ));
    out.push_str("export const CloseCode = {\n");
    for (name, code) in [
        ("NO_HELLO", frame::close_code::NO_HELLO),
        ("HEARTBEAT_TIMEOUT", frame::close_code::HEARTBEAT_TIMEOUT),
        ("SLOW_CONSUMER", frame::close_code::SLOW_CONSUMER),
        ("REPLACED", frame::close_code::REPLACED),
        ("REMOVED", frame::close_code::REMOVED),
        ("LOCKED", frame::close_code::LOCKED),
        ("RESYNC", frame::close_code::RESYNC),
        ("DRAINING", frame::close_code::DRAINING),
        ("GOING_AWAY", frame::close_code::GOING_AWAY),
        ("MESSAGE_TOO_BIG", frame::close_code::MESSAGE_TOO_BIG),
    ] {
        out.push_str(&format!("  {name}: {code},\n"));
    }
    out.push_str("} as const;\n");
    out
}
