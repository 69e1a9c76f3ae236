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
    ("paid", "Paid", "Bezahlt"),
    ("paid_partially", "Paid (partially)", "Teilweise bezahlt"),
    ("failed", "Failed", "Fehlgeschlagen"),
    ("cancelled", "Cancelled", "Abgebrochen"),
    ("reminded", "Reminded", "Erinnert"),
    ("unconfirmed", "Unconfirmed", "Unbestätigt"),
    ("authorized", "Authorized", "Autorisiert"),
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

/// (from, action, to)
const ORDER_TRANSITIONS: &[(&str, &str, &str)] = &[
    ("open", "process", "in_progress"),
    ("open", "cancel", "cancelled"),
    ("in_progress", "complete", "completed"),
    ("in_progress", "cancel", "cancelled"),
    ("cancelled", "reopen", "open"),
    ("completed", "reopen", "open"),
];
const TRANSACTION_TRANSITIONS: &[(&str, &str, &str)] = &[
    ("open", "paid", "paid"),
    ("open", "paid_partially", "paid_partially"),
    ("open", "fail", "failed"),
    ("open", "cancel", "cancelled"),
    ("open", "remind", "reminded"),
    ("open", "process_unconfirmed", "unconfirmed"),
    ("open", "authorize", "authorized"),
    ("reminded", "paid", "paid"),
    ("reminded", "paid_partially", "paid_partially"),
    ("reminded", "cancel", "cancelled"),
    ("reminded", "fail", "failed"),
    ("unconfirmed", "paid", "paid"),
    ("unconfirmed", "fail", "failed"),
    ("unconfirmed", "cancel", "cancelled"),
    ("authorized", "paid", "paid"),
    ("authorized", "fail", "failed"),
    ("authorized", "cancel", "cancelled"),
    ("paid_partially", "paid", "paid"),
    ("paid_partially", "refund_partially", "refunded_partially"),
    ("paid", "refund", "refunded"),
    ("paid", "refund_partially", "refunded_partially"),
    ("failed", "reopen", "open"),
    ("cancelled", "reopen", "open"),
];
const DELIVERY_TRANSITIONS: &[(&str, &str, &str)] = &[
    ("open", "ship", "shipped"),
    ("open", "ship_partially", "shipped_partially"),
    ("open", "cancel", "cancelled"),
    ("shipped_partially", "ship", "shipped"),
    ("shipped", "retour", "returned"),
    ("shipped", "retour_partially", "returned_partially"),
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
        assert!(Machine::Transaction.check("cancelled", "paid").is_err());
        assert!(Machine::Delivery.check("open", "shipped").is_ok());
        assert!(Machine::Delivery.check("returned", "open").is_err());
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
