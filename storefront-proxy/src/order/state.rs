//! The state machines of orders, payment transactions and deliveries: their states
//! (technical names, English and German names) and the only transitions allowed
//! between them (Shopware's `order.state`, `order_transaction.state`,
//! `order_delivery.state`).

use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Value};

use crate::error::ApiError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Machine {
    Order,
    Transaction,
    Delivery,
}

/// A language of the texts the shop writes (state names, documents, the payment page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Locale {
    En,
    De,
}

impl Locale {
    /// The locale of a language id (German for `de-…`, else English).
    pub fn of(conn: &Connection, language_id: &str) -> rusqlite::Result<Locale> {
        let code: Option<String> = conn
            .query_row(
                "SELECT code FROM language WHERE id = ?1",
                [language_id],
                |r| r.get(0),
            )
            .optional()?;
        Ok(if code.is_some_and(|c| c.starts_with("de")) {
            Locale::De
        } else {
            Locale::En
        })
    }

    pub fn code(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::De => "de",
        }
    }

    pub fn from_code(code: &str) -> Locale {
        if code.starts_with("de") {
            Locale::De
        } else {
            Locale::En
        }
    }
}

/// (technical name, English, German)
const ORDER_STATES: &[(&str, &str, &str)] = &[
    ("open", "Open", "Offen"),
    ("in_progress", "In progress", "In Bearbeitung"),
    ("completed", "Done", "Abgeschlossen"),
    ("cancelled", "Cancelled", "Abgebrochen"),
];
const TRANSACTION_STATES: &[(&str, &str, &str)] = &[
    ("open", "Open", "Offen"),
    ("in_progress", "In Progress", "In Bearbeitung"),
    ("paid", "Paid", "Bezahlt"),
    ("paid_partially", "Paid (partially)", "Teilweise bezahlt"),
    ("failed", "Failed", "Fehlgeschlagen"),
    ("cancelled", "Cancelled", "Abgebrochen"),
    ("reminded", "Reminded", "Erinnert"),
    ("unconfirmed", "Unconfirmed", "Unbestätigt"),
    ("authorized", "Authorized", "Autorisiert"),
    ("chargeback", "Chargeback", "Rückbuchung"),
    ("refunded", "Refunded", "Erstattet"),
    (
        "refunded_partially",
        "Refunded (partially)",
        "Teilweise erstattet",
    ),
];
const DELIVERY_STATES: &[(&str, &str, &str)] = &[
    ("open", "Open", "Offen"),
    ("shipped", "Shipped", "Versandt"),
    (
        "shipped_partially",
        "Shipped (partially)",
        "Teilweise versandt",
    ),
    ("returned", "Returned", "Retour"),
    ("returned_partially", "Returned (partially)", "Teilretour"),
    ("cancelled", "Cancelled", "Abgebrochen"),
];

/// (from, action, to), as Shopware's migrations leave its state machines (`Migration1536233560BasicData`
/// and the transitions added after it).
const ORDER_TRANSITIONS: &[(&str, &str, &str)] = &[
    ("open", "process", "in_progress"),
    ("open", "cancel", "cancelled"),
    ("in_progress", "cancel", "cancelled"),
    ("in_progress", "complete", "completed"),
    ("cancelled", "reopen", "open"),
    ("completed", "reopen", "open"),
];
const TRANSACTION_TRANSITIONS: &[(&str, &str, &str)] = &[
    ("open", "pay", "paid"),
    ("open", "pay_partially", "paid_partially"),
    ("open", "paid", "paid"),
    ("open", "paid_partially", "paid_partially"),
    ("open", "cancel", "cancelled"),
    ("open", "remind", "reminded"),
    ("open", "do_pay", "in_progress"),
    ("open", "fail", "failed"),
    ("open", "authorize", "authorized"),
    ("open", "process_unconfirmed", "unconfirmed"),
    ("reminded", "pay", "paid"),
    ("reminded", "pay_partially", "paid_partially"),
    ("reminded", "cancel", "cancelled"),
    ("reminded", "reopen", "open"),
    ("reminded", "do_pay", "in_progress"),
    ("reminded", "authorize", "authorized"),
    ("reminded", "process_unconfirmed", "unconfirmed"),
    ("in_progress", "reopen", "open"),
    ("in_progress", "fail", "failed"),
    ("in_progress", "cancel", "cancelled"),
    ("in_progress", "paid", "paid"),
    ("in_progress", "paid_partially", "paid_partially"),
    ("in_progress", "pay_partially", "paid_partially"),
    ("in_progress", "authorize", "authorized"),
    ("failed", "reopen", "open"),
    ("failed", "do_pay", "in_progress"),
    ("failed", "pay", "paid"),
    ("failed", "fail", "failed"),
    ("failed", "paid", "paid"),
    ("failed", "paid_partially", "paid_partially"),
    ("failed", "pay_partially", "paid_partially"),
    ("failed", "process_unconfirmed", "unconfirmed"),
    ("paid_partially", "remind", "reminded"),
    ("paid_partially", "pay", "paid"),
    ("paid_partially", "refund_partially", "refunded_partially"),
    ("paid_partially", "refund", "refunded"),
    ("paid_partially", "cancel", "cancelled"),
    ("paid_partially", "reopen", "open"),
    ("paid_partially", "do_pay", "in_progress"),
    ("paid_partially", "chargeback", "chargeback"),
    ("paid_partially", "process_unconfirmed", "unconfirmed"),
    ("paid", "refund_partially", "refunded_partially"),
    ("paid", "refund", "refunded"),
    ("paid", "cancel", "cancelled"),
    ("paid", "reopen", "open"),
    ("paid", "chargeback", "chargeback"),
    ("refunded_partially", "refund", "refunded"),
    ("refunded_partially", "cancel", "cancelled"),
    ("refunded_partially", "reopen", "open"),
    ("cancelled", "reopen", "open"),
    ("cancelled", "refund", "refunded"),
    ("cancelled", "refund_partially", "refunded_partially"),
    ("cancelled", "paid", "paid"),
    ("cancelled", "process_unconfirmed", "unconfirmed"),
    ("authorized", "paid", "paid"),
    ("authorized", "paid_partially", "paid_partially"),
    ("authorized", "fail", "failed"),
    ("authorized", "cancel", "cancelled"),
    ("chargeback", "paid", "paid"),
    ("chargeback", "paid_partially", "paid_partially"),
    ("chargeback", "cancel", "cancelled"),
    ("unconfirmed", "paid", "paid"),
    ("unconfirmed", "paid_partially", "paid_partially"),
    ("unconfirmed", "fail", "failed"),
    ("unconfirmed", "cancel", "cancelled"),
    ("unconfirmed", "authorize", "authorized"),
    ("unconfirmed", "reopen", "open"),
];
const DELIVERY_TRANSITIONS: &[(&str, &str, &str)] = &[
    ("open", "ship", "shipped"),
    ("open", "ship_partially", "shipped_partially"),
    ("open", "cancel", "cancelled"),
    ("shipped", "retour", "returned"),
    ("shipped", "retour_partially", "returned_partially"),
    ("shipped", "cancel", "cancelled"),
    ("shipped", "reopen", "open"),
    ("shipped_partially", "retour", "returned"),
    (
        "shipped_partially",
        "retour_partially",
        "returned_partially",
    ),
    ("shipped_partially", "ship", "shipped"),
    ("shipped_partially", "cancel", "cancelled"),
    ("shipped_partially", "reopen", "open"),
    ("returned", "reopen", "open"),
    ("returned_partially", "retour", "returned"),
    ("returned_partially", "reopen", "open"),
    ("cancelled", "reopen", "open"),
];

impl Machine {
    pub fn technical_name(self) -> &'static str {
        match self {
            Machine::Order => "order.state",
            Machine::Transaction => "order_transaction.state",
            Machine::Delivery => "order_delivery.state",
        }
    }

    fn states(self) -> &'static [(&'static str, &'static str, &'static str)] {
        match self {
            Machine::Order => ORDER_STATES,
            Machine::Transaction => TRANSACTION_STATES,
            Machine::Delivery => DELIVERY_STATES,
        }
    }

    fn transitions(self) -> &'static [(&'static str, &'static str, &'static str)] {
        match self {
            Machine::Order => ORDER_TRANSITIONS,
            Machine::Transaction => TRANSACTION_TRANSITIONS,
            Machine::Delivery => DELIVERY_TRANSITIONS,
        }
    }

    /// Checks that `from → to` is one of the machine's transitions; else Shopware's
    /// illegal-transition error.
    pub fn check(self, from: &str, to: &str) -> Result<(), ApiError> {
        let transitions = self.transitions();
        if transitions.iter().any(|(f, _, t)| *f == from && *t == to) {
            return Ok(());
        }
        let action = transitions
            .iter()
            .find(|(_, _, t)| *t == to)
            .map(|(_, a, _)| *a)
            .unwrap_or(to);
        let possible: Vec<&str> = transitions
            .iter()
            .filter(|(f, _, _)| *f == from)
            .map(|(_, a, _)| *a)
            .collect();
        Err(ApiError::bad_request(
            "SYSTEM__ILLEGAL_STATE_TRANSITION",
            format!("Illegal transition \"{action}\" from state \"{from}\". Possible transitions are: {}", possible.join(", ")),
        ))
    }

    /// The state `action` leads to from `from`; else Shopware's illegal-transition error
    /// naming the actions possible from `from`.
    pub fn transition(self, from: &str, action: &str) -> Result<&'static str, ApiError> {
        if let Some((_, _, to)) = self
            .transitions()
            .iter()
            .find(|(f, a, _)| *f == from && *a == action)
        {
            return Ok(to);
        }
        let possible: Vec<&str> = self.available(from).iter().map(|(a, _)| *a).collect();
        Err(ApiError::bad_request(
            "SYSTEM__ILLEGAL_STATE_TRANSITION",
            format!(
                "Illegal transition \"{action}\" from state \"{from}\". Possible transitions are: {}",
                possible.join(", ")
            ),
        ))
    }

    /// The (action, to) pairs possible from `from`, in the machine's order.
    pub fn available(self, from: &str) -> Vec<(&'static str, &'static str)> {
        self.transitions()
            .iter()
            .filter(|(f, _, _)| *f == from)
            .map(|(_, a, t)| (*a, *t))
            .collect()
    }

    /// The entity whose state this machine keeps (`order_transaction`).
    pub fn entity(self) -> &'static str {
        match self {
            Machine::Order => "order",
            Machine::Transaction => "order_transaction",
            Machine::Delivery => "order_delivery",
        }
    }

    /// The table of that entity.
    pub fn table(self) -> &'static str {
        match self {
            Machine::Order => "shop_order",
            Machine::Transaction => "order_transaction",
            Machine::Delivery => "order_delivery",
        }
    }

    /// The name of `state` in `locale` (the technical name for an unknown state).
    pub fn name(self, state: &str, locale: Locale) -> String {
        self.state(state, locale)["name"]
            .as_str()
            .unwrap_or(state)
            .to_owned()
    }

    /// A stable id of a state (Shopware's ids are rows; ours are derived from names).
    pub fn state_id(self, state: &str) -> String {
        let text = format!("{}/{state}", self.technical_name());
        format!(
            "{:016x}{:016x}",
            fnv1a(text.as_bytes(), 0xcbf2_9ce4_8422_2325),
            fnv1a(text.as_bytes(), 0x8422_2325_cbf2_9ce4)
        )
    }

    /// The `StateMachineState` entity of `state`, named in `locale`.
    pub fn state(self, state: &str, locale: Locale) -> Value {
        let (english, german) = self
            .states()
            .iter()
            .find(|(t, _, _)| *t == state)
            .map(|(_, en, de)| (*en, *de))
            .unwrap_or((state, state));
        let name = match locale {
            Locale::En => english,
            Locale::De => german,
        };
        json!({
            "id": self.state_id(state),
            "technicalName": state,
            "name": name,
            "stateMachineId": self.state_id(""),
            "translated": { "name": name },
            "customFields": null,
            "createdAt": "2020-01-01T00:00:00+00:00",
            "updatedAt": null,
            "apiAlias": "state_machine_state",
        })
    }
}

fn fnv1a(bytes: &[u8], seed: u64) -> u64 {
    bytes.iter().fold(seed, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_listed_transitions_are_allowed() {
        assert!(Machine::Order.check("open", "cancelled").is_ok());
        assert!(Machine::Order.check("in_progress", "cancelled").is_ok());
        assert!(Machine::Order.check("cancelled", "open").is_ok());
        assert!(Machine::Order.check("completed", "cancelled").is_err());
        assert!(Machine::Order.check("cancelled", "cancelled").is_err());
        assert!(Machine::Transaction.check("open", "paid").is_ok());
        assert!(Machine::Transaction.check("failed", "open").is_ok());
        assert!(Machine::Transaction.check("paid", "paid").is_err());
        assert!(Machine::Transaction.check("refunded", "paid").is_err());
        assert_eq!(
            Machine::Transaction.transition("open", "paid").ok(),
            Some("paid")
        );
        assert_eq!(
            Machine::Delivery.transition("shipped", "retour").ok(),
            Some("returned")
        );
        assert!(Machine::Delivery.transition("returned", "ship").is_err());
        assert!(Machine::Delivery.check("open", "shipped").is_ok());
        assert!(Machine::Delivery.check("returned", "shipped").is_err());
    }

    #[test]
    fn states_are_named_in_both_languages_with_stable_ids() {
        let en = Machine::Transaction.state("paid", Locale::En);
        let de = Machine::Transaction.state("paid", Locale::De);
        assert_eq!(
            (en["name"].as_str(), de["name"].as_str()),
            (Some("Paid"), Some("Bezahlt"))
        );
        assert_eq!(en["id"], de["id"]);
        assert_ne!(en["id"], Machine::Order.state("paid", Locale::En)["id"]);
        assert!(crate::storage::is_id(en["id"].as_str().unwrap()));
    }

    #[test]
    fn an_illegal_transition_names_the_possible_ones() {
        let Err(ApiError::Client { code, detail, .. }) =
            Machine::Order.check("completed", "cancelled")
        else {
            panic!("allowed")
        };
        assert_eq!(code, "SYSTEM__ILLEGAL_STATE_TRANSITION");
        assert!(
            detail.contains("\"cancel\"") && detail.contains("reopen"),
            "{detail}"
        );
    }
}
