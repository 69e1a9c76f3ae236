//! The document types of an order (Shopware's technical names) and their names, which
//! the documents, the loaded order and the Admin API show.

use super::state::Locale;

/// The document types (Shopware's technical names) with their English and German names.
pub const DOCUMENT_TYPES: &[(&str, &str, &str)] = &[
    ("invoice", "Invoice", "Rechnung"),
    ("credit_note", "Credit note", "Gutschrift"),
    ("delivery_note", "Delivery note", "Lieferschein"),
    ("storno", "Cancellation invoice", "Stornorechnung"),
];

/// The name of a document type in `locale` (the technical name if unknown).
pub fn type_name(kind: &str, locale: Locale) -> &str {
    DOCUMENT_TYPES
        .iter()
        .find(|(k, _, _)| *k == kind)
        .map(|(_, en, de)| if locale == Locale::De { *de } else { *en })
        .unwrap_or(kind)
}
