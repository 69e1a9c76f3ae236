//! What participants ask the hub to do.
//!
//! [`Action`] carries the interaction action keys of spec section 3 (`switchSlide`,
//! `loadCart`, ...). [`Interaction`] carries the interaction names of the DSR reference
//! (`product.viewed`, `guide.hovered`, ...) with their reference payloads.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::engagement::polls::NewPoll;
use crate::engagement::questions::QuestionStatus;
use crate::engagement::{
    check_blocked_words, ChatSettings, Reaction, MAX_SLOW_MODE_SECONDS, MAX_TIMEOUT_MINUTES,
};
use crate::state::{check_id, check_optional_id, DynamicPage, Id, Invalid, ViewMode};

/// An action of spec section 3. Actions that concern one attendee name them with
/// `attendeeId`; a guide may set it to act for an attendee, a client acts for itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "key", content = "payload", rename_all = "camelCase")]
pub enum Action {
    /// Guide only: move everyone to a slide.
    #[serde(rename_all = "camelCase")]
    SwitchSlide {
        page_id: Id,
        section_id: Id,
        slide_alias: u32,
    },
    /// Ask clients to reload the slide they are on (its content changed).
    #[serde(rename_all = "camelCase")]
    LoadSlide { page_id: Id, section_id: Id },
    /// Ask clients to reload the product list of the current slide.
    #[serde(rename_all = "camelCase")]
    LoadProductList {},
    #[serde(rename_all = "camelCase")]
    LoadListingProducts { page_id: Id, section_id: Id },
    #[serde(rename_all = "camelCase")]
    UpdateListingProducts {
        page_id: Id,
        section_id: Id,
        product_ids: Vec<Id>,
    },
    #[serde(rename_all = "camelCase")]
    LoadCart { attendee_id: Option<Id> },
    #[serde(rename_all = "camelCase")]
    AddToCart {
        attendee_id: Option<Id>,
        product_id: Id,
        quantity: u32,
    },
    #[serde(rename_all = "camelCase")]
    RemoveFromCart {
        attendee_id: Option<Id>,
        line_item_id: Id,
    },
    #[serde(rename_all = "camelCase")]
    UpdateProductQuantity {
        attendee_id: Option<Id>,
        line_item_id: Id,
        quantity: u32,
    },
    #[serde(rename_all = "camelCase")]
    LoadLikeList { attendee_id: Option<Id> },
    #[serde(rename_all = "camelCase")]
    RemoveFromLikeList {
        attendee_id: Option<Id>,
        product_id: Id,
    },
    #[serde(rename_all = "camelCase")]
    LoadLastSeen { attendee_id: Option<Id> },
    #[serde(rename_all = "camelCase")]
    LoadProductReviews { product_id: Id },
    /// Guide only (an extension of the reference keys): mute every attendee's
    /// microphone, or lift that.
    #[serde(rename_all = "camelCase")]
    MuteAll { muted: bool },
    /// Guide only (an extension of the reference keys): while locked, no one can join.
    #[serde(rename_all = "camelCase")]
    SetLocked { locked: bool },
    /// Guide only (extension): ask an attendee for the right to view and edit their cart.
    #[serde(rename_all = "camelCase")]
    RequestCartPermission { attendee_id: Id },
    /// Client only (extension): grant the guide that right, or refuse or take it back.
    #[serde(rename_all = "camelCase")]
    SetCartPermission { granted: bool },
    /// Anyone (extension, issue #19): post a chat message (plain text, at most
    /// [`crate::engagement::MAX_CHAT_MESSAGE_CHARS`] characters).
    #[serde(rename_all = "camelCase")]
    SendChatMessage { text: String },
    /// Guide only: delete a chat message for everyone.
    #[serde(rename_all = "camelCase")]
    DeleteChatMessage { message_id: Id },
    /// Guide only: pin a message (or unpin with `null`).
    #[serde(rename_all = "camelCase")]
    PinChatMessage { message_id: Option<Id> },
    /// Guide only: close or open the chat, slow mode, clickable links.
    #[serde(rename_all = "camelCase")]
    SetChatSettings { settings: ChatSettings },
    /// Guide only: the appointment's blocked words (replaces the list).
    #[serde(rename_all = "camelCase")]
    SetChatBlockedWords { words: Vec<String> },
    /// Guide only: time an attendee out of the chat for `timeoutMinutes` (`null` lifts a
    /// time-out), and ban or unban them.
    #[serde(rename_all = "camelCase")]
    ModerateChatAttendee {
        attendee_id: Id,
        timeout_minutes: Option<u32>,
        banned: bool,
    },
    /// Anyone: a reaction tap. Volatile: counted, summed per room and sent as sums.
    #[serde(rename_all = "camelCase")]
    SendReaction { reaction: Reaction },
    /// Guide only (issue #19 polls): create a draft poll.
    #[serde(rename_all = "camelCase")]
    CreatePoll { poll: NewPoll },
    /// Guide only: open a poll (a closed one opens again).
    #[serde(rename_all = "camelCase")]
    OpenPoll { poll_id: Id },
    /// Guide only: close a poll; its counts are final.
    #[serde(rename_all = "camelCase")]
    ClosePoll { poll_id: Id },
    /// Guide only: show attendees a poll's counts, or hide them.
    #[serde(rename_all = "camelCase")]
    ShowPollResults { poll_id: Id, shown: bool },
    /// Anyone: vote in an open poll (a second vote replaces the first).
    #[serde(rename_all = "camelCase")]
    VotePoll { poll_id: Id, answer_ids: Vec<Id> },
    /// Anyone (issue #19 questions): ask the guide a question.
    #[serde(rename_all = "camelCase")]
    AskQuestion { text: String },
    /// Anyone: up-vote someone else's question (`voted: false` withdraws the up-vote).
    #[serde(rename_all = "camelCase")]
    VoteQuestion { question_id: Id, voted: bool },
    /// Guide only: mark a question as being answered (the one before it, if any, goes
    /// back to the queue), answered, or back in the queue.
    #[serde(rename_all = "camelCase")]
    MarkQuestion {
        question_id: Id,
        status: QuestionStatus,
    },
    /// Guide only: dismiss a question; it goes for everyone.
    #[serde(rename_all = "camelCase")]
    DismissQuestion { question_id: Id },
}

/// Most product ids one `updateListingProducts` carries. A listing slide shows a page
/// of products, far fewer; the bound keeps one frame from becoming an event of thousands
/// of ids that every attendee is sent.
pub const MAX_LISTING_PRODUCTS: usize = 500;

impl Action {
    /// Checks what serde cannot: ids are ids and lists have bounds. Every participant's
    /// action is checked before anything is decided or stored (a guide's too: the guide
    /// is trusted, the guide's browser is not).
    pub fn validate(&self) -> Result<(), Invalid> {
        match self {
            Action::SwitchSlide {
                page_id,
                section_id,
                ..
            }
            | Action::LoadSlide {
                page_id,
                section_id,
            }
            | Action::LoadListingProducts {
                page_id,
                section_id,
            } => {
                check_id("pageId", page_id)?;
                check_id("sectionId", section_id)
            }
            Action::UpdateListingProducts {
                page_id,
                section_id,
                product_ids,
            } => {
                check_id("pageId", page_id)?;
                check_id("sectionId", section_id)?;
                if product_ids.len() > MAX_LISTING_PRODUCTS {
                    return Err(format!(
                        "productIds must hold at most {MAX_LISTING_PRODUCTS} ids"
                    ));
                }
                product_ids
                    .iter()
                    .try_for_each(|id| check_id("productIds", id))
            }
            Action::LoadCart { attendee_id }
            | Action::LoadLikeList { attendee_id }
            | Action::LoadLastSeen { attendee_id } => {
                check_optional_id("attendeeId", attendee_id.as_deref())
            }
            Action::AddToCart {
                attendee_id,
                product_id,
                ..
            }
            | Action::RemoveFromLikeList {
                attendee_id,
                product_id,
            } => {
                check_optional_id("attendeeId", attendee_id.as_deref())?;
                check_id("productId", product_id)
            }
            Action::RemoveFromCart {
                attendee_id,
                line_item_id,
            }
            | Action::UpdateProductQuantity {
                attendee_id,
                line_item_id,
                ..
            } => {
                check_optional_id("attendeeId", attendee_id.as_deref())?;
                check_id("lineItemId", line_item_id)
            }
            Action::LoadProductReviews { product_id } => check_id("productId", product_id),
            Action::RequestCartPermission { attendee_id } => check_id("attendeeId", attendee_id),
            Action::DeleteChatMessage { message_id } => check_id("messageId", message_id),
            Action::PinChatMessage { message_id } => {
                check_optional_id("messageId", message_id.as_deref())
            }
            Action::SetChatSettings { settings } => {
                if settings.slow_mode_seconds > MAX_SLOW_MODE_SECONDS {
                    return Err(format!(
                        "slowModeSeconds must be at most {MAX_SLOW_MODE_SECONDS}"
                    ));
                }
                Ok(())
            }
            Action::SetChatBlockedWords { words } => check_blocked_words(words),
            Action::ModerateChatAttendee {
                attendee_id,
                timeout_minutes,
                ..
            } => {
                check_id("attendeeId", attendee_id)?;
                if timeout_minutes.is_some_and(|m| m == 0 || m > MAX_TIMEOUT_MINUTES) {
                    return Err(format!(
                        "timeoutMinutes must be between 1 and {MAX_TIMEOUT_MINUTES}"
                    ));
                }
                Ok(())
            }
            // The text's checks have their own error codes (`CHAT_EMPTY`, `CHAT_TOO_LONG`):
            // the hub's policy makes them.
            Action::SendChatMessage { .. } | Action::SendReaction { .. } => Ok(()),
            // Likewise a question's text (`QUESTION_EMPTY`, `QUESTION_TOO_LONG`).
            Action::AskQuestion { .. } => Ok(()),
            Action::VoteQuestion { question_id, .. }
            | Action::MarkQuestion { question_id, .. }
            | Action::DismissQuestion { question_id } => check_id("questionId", question_id),
            Action::CreatePoll { poll } => poll.validate(),
            Action::OpenPoll { poll_id }
            | Action::ClosePoll { poll_id }
            | Action::ShowPollResults { poll_id, .. } => check_id("pollId", poll_id),
            // Which answers are known, and how many a poll takes, has its own error codes.
            Action::VotePoll {
                poll_id,
                answer_ids,
            } => {
                check_id("pollId", poll_id)?;
                if answer_ids.len() > crate::engagement::polls::MAX_POLL_ANSWERS {
                    return Err(format!(
                        "answerIds must hold at most {} entries",
                        crate::engagement::polls::MAX_POLL_ANSWERS
                    ));
                }
                Ok(())
            }
            Action::LoadProductList {}
            | Action::MuteAll { .. }
            | Action::SetLocked { .. }
            | Action::SetCartPermission { .. } => Ok(()),
        }
    }

    /// The keys of the actions that load or change an attendee's cart, in this order (the
    /// web app reloads a cart when a `reload` event carries one of them; it reads this
    /// list from `web/src/protocol/live-state-cases.json`).
    pub const CART_ACTION_KEYS: [&'static str; 4] = [
        "loadCart",
        "addToCart",
        "removeFromCart",
        "updateProductQuantity",
    ];

    /// Whether this action loads or changes an attendee's cart ([`Action::CART_ACTION_KEYS`]).
    pub fn is_cart_action(&self) -> bool {
        Self::CART_ACTION_KEYS.contains(&self.key())
    }

    /// For the actions on what lives in the shop (cart, likes, last seen), which the hub
    /// passes on as a reload hint to one attendee: the attendee the action names, if any
    /// (`Some(None)`: none named). `None` for every other action.
    pub fn reload_hint_for(&self) -> Option<Option<&Id>> {
        match self {
            Action::LoadCart { attendee_id }
            | Action::AddToCart { attendee_id, .. }
            | Action::RemoveFromCart { attendee_id, .. }
            | Action::UpdateProductQuantity { attendee_id, .. }
            | Action::LoadLikeList { attendee_id }
            | Action::RemoveFromLikeList { attendee_id, .. }
            | Action::LoadLastSeen { attendee_id } => Some(attendee_id.as_ref()),
            _ => None,
        }
    }

    /// The action key as it appears on the wire.
    pub fn key(&self) -> &'static str {
        match self {
            Action::SwitchSlide { .. } => "switchSlide",
            Action::LoadSlide { .. } => "loadSlide",
            Action::LoadProductList {} => "loadProductList",
            Action::LoadListingProducts { .. } => "loadListingProducts",
            Action::UpdateListingProducts { .. } => "updateListingProducts",
            Action::LoadCart { .. } => "loadCart",
            Action::AddToCart { .. } => "addToCart",
            Action::RemoveFromCart { .. } => "removeFromCart",
            Action::UpdateProductQuantity { .. } => "updateProductQuantity",
            Action::LoadLikeList { .. } => "loadLikeList",
            Action::RemoveFromLikeList { .. } => "removeFromLikeList",
            Action::LoadLastSeen { .. } => "loadLastSeen",
            Action::LoadProductReviews { .. } => "loadProductReviews",
            Action::MuteAll { .. } => "muteAll",
            Action::SetLocked { .. } => "setLocked",
            Action::RequestCartPermission { .. } => "requestCartPermission",
            Action::SetCartPermission { .. } => "setCartPermission",
            Action::SendChatMessage { .. } => "sendChatMessage",
            Action::DeleteChatMessage { .. } => "deleteChatMessage",
            Action::PinChatMessage { .. } => "pinChatMessage",
            Action::SetChatSettings { .. } => "setChatSettings",
            Action::SetChatBlockedWords { .. } => "setChatBlockedWords",
            Action::ModerateChatAttendee { .. } => "moderateChatAttendee",
            Action::SendReaction { .. } => "sendReaction",
            Action::CreatePoll { .. } => "createPoll",
            Action::OpenPoll { .. } => "openPoll",
            Action::ClosePoll { .. } => "closePoll",
            Action::ShowPollResults { .. } => "showPollResults",
            Action::VotePoll { .. } => "votePoll",
            Action::AskQuestion { .. } => "askQuestion",
            Action::VoteQuestion { .. } => "voteQuestion",
            Action::MarkQuestion { .. } => "markQuestion",
            Action::DismissQuestion { .. } => "dismissQuestion",
        }
    }

    /// Actions that change what every participant sees; only a guide may send them.
    pub fn is_guide_only(&self) -> bool {
        matches!(
            self,
            Action::SwitchSlide { .. }
                | Action::LoadSlide { .. }
                | Action::LoadProductList {}
                | Action::LoadListingProducts { .. }
                | Action::UpdateListingProducts { .. }
                | Action::MuteAll { .. }
                | Action::SetLocked { .. }
                | Action::RequestCartPermission { .. }
                | Action::DeleteChatMessage { .. }
                | Action::PinChatMessage { .. }
                | Action::SetChatSettings { .. }
                | Action::SetChatBlockedWords { .. }
                | Action::ModerateChatAttendee { .. }
                | Action::CreatePoll { .. }
                | Action::OpenPoll { .. }
                | Action::ClosePoll { .. }
                | Action::ShowPollResults { .. }
                | Action::MarkQuestion { .. }
                | Action::DismissQuestion { .. }
        )
    }
}

/// The empty payload of the reference's `EmptyInteraction`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
pub struct Empty {}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProductPayload {
    pub product_id: Id,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DynamicPageClosedPayload {
    #[serde(default)]
    pub page_id: Option<Id>,
    #[serde(default)]
    pub all: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PageViewedPayload {
    pub page_id: Id,
    pub section_id: Id,
    pub slide_alias: u32,
    #[serde(default)]
    pub page_number: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GuideHoveredPayload {
    #[serde(default)]
    pub hovered_element_id: Option<Id>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct TogglePayload {
    pub active: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ViewModePayload {
    #[serde(default)]
    pub mode: ViewMode,
}

/// An interaction of the DSR reference (`DynamicInteractionBody`), discriminated by `name`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "name", content = "payload")]
pub enum Interaction {
    #[serde(rename = "keep.alive")]
    KeepAlive(Empty),
    #[serde(rename = "quickview.opened")]
    QuickviewOpened(Empty),
    #[serde(rename = "quickview.closed")]
    QuickviewClosed(Empty),
    #[serde(rename = "attendee.leave")]
    AttendeeLeave(Empty),
    #[serde(rename = "remote.checkout.accepted")]
    RemoteCheckoutAccepted(Empty),
    #[serde(rename = "remote.checkout.denied")]
    RemoteCheckoutDenied(Empty),
    #[serde(rename = "product.viewed")]
    ProductViewed(ProductPayload),
    #[serde(rename = "attendee.product.collection.liked")]
    ProductLiked(ProductPayload),
    #[serde(rename = "attendee.product.collection.disliked")]
    ProductDisliked(ProductPayload),
    #[serde(rename = "attendee.product.collection.removed")]
    ProductRemovedFromCollection(ProductPayload),
    #[serde(rename = "dynamicPage.opened")]
    DynamicPageOpened(DynamicPage),
    #[serde(rename = "dynamicPage.closed")]
    DynamicPageClosed(DynamicPageClosedPayload),
    #[serde(rename = "dynamicProductPage.opened")]
    DynamicProductPageOpened(DynamicPage),
    #[serde(rename = "page.viewed")]
    PageViewed(PageViewedPayload),
    #[serde(rename = "guide.hovered")]
    GuideHovered(GuideHoveredPayload),
    #[serde(rename = "broadcastMode.toggled")]
    BroadcastModeToggled(TogglePayload),
    #[serde(rename = "viewMode.changed")]
    ViewModeChanged(ViewModePayload),
    #[serde(rename = "screenSharing.toggled")]
    ScreenSharingToggled(TogglePayload),
}

/// The interaction names alone, e.g. for validation messages and metrics labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub enum InteractionName {
    #[serde(rename = "keep.alive")]
    KeepAlive,
    #[serde(rename = "quickview.opened")]
    QuickviewOpened,
    #[serde(rename = "quickview.closed")]
    QuickviewClosed,
    #[serde(rename = "attendee.leave")]
    AttendeeLeave,
    #[serde(rename = "remote.checkout.accepted")]
    RemoteCheckoutAccepted,
    #[serde(rename = "remote.checkout.denied")]
    RemoteCheckoutDenied,
    #[serde(rename = "product.viewed")]
    ProductViewed,
    #[serde(rename = "attendee.product.collection.liked")]
    ProductLiked,
    #[serde(rename = "attendee.product.collection.disliked")]
    ProductDisliked,
    #[serde(rename = "attendee.product.collection.removed")]
    ProductRemovedFromCollection,
    #[serde(rename = "dynamicPage.opened")]
    DynamicPageOpened,
    #[serde(rename = "dynamicPage.closed")]
    DynamicPageClosed,
    #[serde(rename = "dynamicProductPage.opened")]
    DynamicProductPageOpened,
    #[serde(rename = "page.viewed")]
    PageViewed,
    #[serde(rename = "guide.hovered")]
    GuideHovered,
    #[serde(rename = "broadcastMode.toggled")]
    BroadcastModeToggled,
    #[serde(rename = "viewMode.changed")]
    ViewModeChanged,
    #[serde(rename = "screenSharing.toggled")]
    ScreenSharingToggled,
}

impl Interaction {
    pub fn name(&self) -> InteractionName {
        use Interaction as I;
        use InteractionName as N;
        match self {
            I::KeepAlive(_) => N::KeepAlive,
            I::QuickviewOpened(_) => N::QuickviewOpened,
            I::QuickviewClosed(_) => N::QuickviewClosed,
            I::AttendeeLeave(_) => N::AttendeeLeave,
            I::RemoteCheckoutAccepted(_) => N::RemoteCheckoutAccepted,
            I::RemoteCheckoutDenied(_) => N::RemoteCheckoutDenied,
            I::ProductViewed(_) => N::ProductViewed,
            I::ProductLiked(_) => N::ProductLiked,
            I::ProductDisliked(_) => N::ProductDisliked,
            I::ProductRemovedFromCollection(_) => N::ProductRemovedFromCollection,
            I::DynamicPageOpened(_) => N::DynamicPageOpened,
            I::DynamicPageClosed(_) => N::DynamicPageClosed,
            I::DynamicProductPageOpened(_) => N::DynamicProductPageOpened,
            I::PageViewed(_) => N::PageViewed,
            I::GuideHovered(_) => N::GuideHovered,
            I::BroadcastModeToggled(_) => N::BroadcastModeToggled,
            I::ViewModeChanged(_) => N::ViewModeChanged,
            I::ScreenSharingToggled(_) => N::ScreenSharingToggled,
        }
    }

    /// Checks what serde cannot (ids are ids, a dynamic page's type and position are
    /// bounded), before anything is decided or stored; see [`Action::validate`].
    pub fn validate(&self) -> Result<(), Invalid> {
        match self {
            Interaction::ProductViewed(p)
            | Interaction::ProductLiked(p)
            | Interaction::ProductDisliked(p)
            | Interaction::ProductRemovedFromCollection(p) => check_id("productId", &p.product_id),
            Interaction::DynamicPageOpened(page) | Interaction::DynamicProductPageOpened(page) => {
                page.validate()
            }
            Interaction::DynamicPageClosed(p) => check_optional_id("pageId", p.page_id.as_deref()),
            Interaction::PageViewed(p) => {
                check_id("pageId", &p.page_id)?;
                check_id("sectionId", &p.section_id)
            }
            Interaction::GuideHovered(p) => {
                check_optional_id("hoveredElementId", p.hovered_element_id.as_deref())
            }
            Interaction::KeepAlive(_)
            | Interaction::QuickviewOpened(_)
            | Interaction::QuickviewClosed(_)
            | Interaction::AttendeeLeave(_)
            | Interaction::RemoteCheckoutAccepted(_)
            | Interaction::RemoteCheckoutDenied(_)
            | Interaction::BroadcastModeToggled(_)
            | Interaction::ViewModeChanged(_)
            | Interaction::ScreenSharingToggled(_) => Ok(()),
        }
    }

    /// Interactions that steer the whole room; only a guide may send them.
    pub fn is_guide_only(&self) -> bool {
        matches!(
            self,
            Interaction::DynamicPageOpened(_)
                | Interaction::DynamicPageClosed(_)
                | Interaction::DynamicProductPageOpened(_)
                | Interaction::GuideHovered(_)
                | Interaction::BroadcastModeToggled(_)
                | Interaction::ViewModeChanged(_)
                | Interaction::ScreenSharingToggled(_)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{MAX_PAGE_POSITION, MAX_PAGE_TYPE_LENGTH};

    const ID: &str = "0123456789abcdef0123456789abcdef";
    const BAD: &str = "0123456789ABCDEF0123456789ABCDEF";

    fn invalid(field: &str) -> Result<(), Invalid> {
        Err(format!("{field} must be 32 lowercase hex characters"))
    }

    #[test]
    fn every_id_of_an_action_is_checked() {
        let some = |id: &str| Some(id.to_owned());
        let cases = [
            (
                Action::SwitchSlide {
                    page_id: BAD.into(),
                    section_id: ID.into(),
                    slide_alias: 1,
                },
                "pageId",
            ),
            (
                Action::SwitchSlide {
                    page_id: ID.into(),
                    section_id: "x".into(),
                    slide_alias: 1,
                },
                "sectionId",
            ),
            (
                Action::LoadSlide {
                    page_id: ID.into(),
                    section_id: BAD.into(),
                },
                "sectionId",
            ),
            (
                Action::LoadListingProducts {
                    page_id: "".into(),
                    section_id: ID.into(),
                },
                "pageId",
            ),
            (
                Action::UpdateListingProducts {
                    page_id: ID.into(),
                    section_id: ID.into(),
                    product_ids: vec![ID.into(), BAD.into()],
                },
                "productIds",
            ),
            (
                Action::LoadCart {
                    attendee_id: some(BAD),
                },
                "attendeeId",
            ),
            (
                Action::AddToCart {
                    attendee_id: None,
                    product_id: BAD.into(),
                    quantity: 1,
                },
                "productId",
            ),
            (
                Action::RemoveFromCart {
                    attendee_id: some(ID),
                    line_item_id: "../x".into(),
                },
                "lineItemId",
            ),
            (
                Action::UpdateProductQuantity {
                    attendee_id: some("a"),
                    line_item_id: ID.into(),
                    quantity: 1,
                },
                "attendeeId",
            ),
            (
                Action::LoadLikeList {
                    attendee_id: some(BAD),
                },
                "attendeeId",
            ),
            (
                Action::RemoveFromLikeList {
                    attendee_id: None,
                    product_id: BAD.into(),
                },
                "productId",
            ),
            (
                Action::LoadLastSeen {
                    attendee_id: some(BAD),
                },
                "attendeeId",
            ),
            (
                Action::LoadProductReviews {
                    product_id: BAD.into(),
                },
                "productId",
            ),
            (
                Action::RequestCartPermission {
                    attendee_id: BAD.into(),
                },
                "attendeeId",
            ),
        ];
        for (action, field) in cases {
            assert_eq!(action.validate(), invalid(field), "{}", action.key());
        }
        assert_eq!(Action::LoadCart { attendee_id: None }.validate(), Ok(()));
        assert_eq!(
            Action::SwitchSlide {
                page_id: ID.into(),
                section_id: ID.into(),
                slide_alias: 1
            }
            .validate(),
            Ok(())
        );
    }

    #[test]
    fn a_listing_holds_at_most_max_listing_products() {
        let listing = |n: usize| Action::UpdateListingProducts {
            page_id: ID.into(),
            section_id: ID.into(),
            product_ids: vec![ID.into(); n],
        };
        assert_eq!(listing(MAX_LISTING_PRODUCTS).validate(), Ok(()));
        assert_eq!(
            listing(MAX_LISTING_PRODUCTS + 1).validate(),
            Err("productIds must hold at most 500 ids".into())
        );
    }

    #[test]
    fn interactions_check_their_ids_and_a_dynamic_pages_type_and_position() {
        let product = |id: &str| ProductPayload {
            product_id: id.into(),
        };
        assert_eq!(
            Interaction::ProductViewed(product(BAD)).validate(),
            invalid("productId")
        );
        assert_eq!(Interaction::ProductLiked(product(ID)).validate(), Ok(()));
        let closed = Interaction::DynamicPageClosed(DynamicPageClosedPayload {
            page_id: Some(BAD.into()),
            all: false,
        });
        assert_eq!(closed.validate(), invalid("pageId"));
        let viewed = PageViewedPayload {
            page_id: ID.into(),
            section_id: BAD.into(),
            slide_alias: 1,
            page_number: None,
        };
        assert_eq!(
            Interaction::PageViewed(viewed).validate(),
            invalid("sectionId")
        );
        let hovered = GuideHoveredPayload {
            hovered_element_id: Some("<img onerror=x>".into()),
        };
        assert_eq!(
            Interaction::GuideHovered(hovered).validate(),
            invalid("hoveredElementId")
        );

        let page = |page_type: &str, position: Option<i64>, product_id: Option<&str>| {
            Interaction::DynamicProductPageOpened(DynamicPage {
                page_id: ID.into(),
                page_type: page_type.into(),
                opened: true,
                position,
                product_id: product_id.map(Into::into),
            })
        };
        assert_eq!(page("productDetail", Some(3), Some(ID)).validate(), Ok(()));
        assert_eq!(
            page("productDetail", None, Some(BAD)).validate(),
            invalid("productId")
        );
        let bad_type = Err(format!(
            "type must be 1 to {MAX_PAGE_TYPE_LENGTH} letters, digits, '-', '_' or '.'"
        ));
        for page_type in [
            "",
            "<script>",
            "product detail",
            &"t".repeat(MAX_PAGE_TYPE_LENGTH + 1),
        ] {
            assert_eq!(
                page(page_type, None, None).validate(),
                bad_type,
                "{page_type:?}"
            );
        }
        assert_eq!(
            page(&"t".repeat(MAX_PAGE_TYPE_LENGTH), None, None).validate(),
            Ok(())
        );
        let bad_position = Err(format!(
            "position must be between 0 and {MAX_PAGE_POSITION}"
        ));
        assert_eq!(page("productList", Some(-1), None).validate(), bad_position);
        assert_eq!(
            page("productList", Some(MAX_PAGE_POSITION + 1), None).validate(),
            bad_position
        );
    }

    #[test]
    fn the_cart_actions_are_actions_and_only_those_are_cart_actions() {
        let id = || "a".repeat(32);
        let cart = [
            Action::LoadCart { attendee_id: None },
            Action::AddToCart {
                attendee_id: None,
                product_id: id(),
                quantity: 1,
            },
            Action::RemoveFromCart {
                attendee_id: Some(id()),
                line_item_id: id(),
            },
            Action::UpdateProductQuantity {
                attendee_id: None,
                line_item_id: id(),
                quantity: 2,
            },
        ];
        assert_eq!(
            cart.iter().map(Action::key).collect::<Vec<_>>(),
            Action::CART_ACTION_KEYS
        );
        assert!(cart.iter().all(Action::is_cart_action));
        let others = [
            Action::LoadLikeList { attendee_id: None },
            Action::LoadLastSeen { attendee_id: None },
            Action::LoadProductList {},
        ];
        assert!(!others.iter().any(Action::is_cart_action));
    }
}
