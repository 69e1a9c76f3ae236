//! What participants ask the hub to do.
//!
//! [`Action`] carries the interaction action keys of spec section 3 (`switchSlide`,
//! `loadCart`, ...). [`Interaction`] carries the interaction names of the DSR reference
//! (`product.viewed`, `guide.hovered`, ...) with their reference payloads.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::state::{DynamicPage, Id, ViewMode};

/// An action of spec section 3. Actions that concern one attendee name them with
/// `attendeeId`; a guide may set it to act for an attendee, a client acts for itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "key", content = "payload", rename_all = "camelCase")]
pub enum Action {
    /// Guide only: move everyone to a slide.
    #[serde(rename_all = "camelCase")]
    SwitchSlide { page_id: Id, section_id: Id, slide_alias: u32 },
    /// Ask clients to reload the slide they are on (its content changed).
    #[serde(rename_all = "camelCase")]
    LoadSlide { page_id: Id, section_id: Id },
    /// Ask clients to reload the product list of the current slide.
    #[serde(rename_all = "camelCase")]
    LoadProductList {},
    #[serde(rename_all = "camelCase")]
    LoadListingProducts { page_id: Id, section_id: Id },
    #[serde(rename_all = "camelCase")]
    UpdateListingProducts { page_id: Id, section_id: Id, product_ids: Vec<Id> },
    #[serde(rename_all = "camelCase")]
    LoadCart { attendee_id: Option<Id> },
    #[serde(rename_all = "camelCase")]
    AddToCart { attendee_id: Option<Id>, product_id: Id, quantity: u32 },
    #[serde(rename_all = "camelCase")]
    RemoveFromCart { attendee_id: Option<Id>, line_item_id: Id },
    #[serde(rename_all = "camelCase")]
    UpdateProductQuantity { attendee_id: Option<Id>, line_item_id: Id, quantity: u32 },
    #[serde(rename_all = "camelCase")]
    LoadLikeList { attendee_id: Option<Id> },
    #[serde(rename_all = "camelCase")]
    RemoveFromLikeList { attendee_id: Option<Id>, product_id: Id },
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
}

impl Action {
    /// The keys of the actions that load or change an attendee's cart, in this order (the
    /// web app reloads a cart when a `reload` event carries one of them; it reads this
    /// list from `web/src/protocol/live-state-cases.json`).
    pub const CART_ACTION_KEYS: [&'static str; 4] = ["loadCart", "addToCart", "removeFromCart", "updateProductQuantity"];

    /// Whether this action loads or changes an attendee's cart ([`Action::CART_ACTION_KEYS`]).
    pub fn is_cart_action(&self) -> bool {
        Self::CART_ACTION_KEYS.contains(&self.key())
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
    use super::Action;

    #[test]
    fn the_cart_actions_are_actions_and_only_those_are_cart_actions() {
        let id = || "a".repeat(32);
        let cart = [
            Action::LoadCart { attendee_id: None },
            Action::AddToCart { attendee_id: None, product_id: id(), quantity: 1 },
            Action::RemoveFromCart { attendee_id: Some(id()), line_item_id: id() },
            Action::UpdateProductQuantity { attendee_id: None, line_item_id: id(), quantity: 2 },
        ];
        assert_eq!(cart.iter().map(Action::key).collect::<Vec<_>>(), Action::CART_ACTION_KEYS);
        assert!(cart.iter().all(Action::is_cart_action));
        let others = [Action::LoadLikeList { attendee_id: None }, Action::LoadLastSeen { attendee_id: None }, Action::LoadProductList {}];
        assert!(!others.iter().any(Action::is_cart_action));
    }
}
