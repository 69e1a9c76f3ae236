//! Order documents: the invoice as a PDF (written with `pdf-writer`, in the order's
//! language, kept in SQLite) and `GET|POST /store-api/document/download/{documentId}/{deepLinkCode}`.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str, TextStr};
use rusqlite::{params, OptionalExtension, Transaction};
use serde_json::Value;

use super::document_type::type_name;
use super::state::Locale;
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::{is_id, new_id, now_rfc3339};
use crate::store_api::RequestParams;
use crate::store_api::ShopContext;

/// A4 in points.
const PAGE_WIDTH: f32 = 595.0;
const PAGE_HEIGHT: f32 = 842.0;
const MARGIN: f32 = 56.0;
const LINE: f32 = 14.0;

/// Text in the fonts' WinAnsi encoding: Latin-1 as is, `€` and typographic quotes
/// mapped, anything else a question mark.
fn win_ansi(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c {
            '€' => 0x80,
            '‚' => 0x82,
            '„' => 0x84,
            '…' => 0x85,
            '‘' => 0x91,
            '’' => 0x92,
            '“' => 0x93,
            '”' => 0x94,
            '–' => 0x96,
            '—' => 0x97,
            c if (c as u32) < 0x20 => b' ',
            c if (c as u32) <= 0xff => c as u32 as u8,
            _ => b'?',
        })
        .collect()
}

/// One piece of text on a line: x position, bold, right-aligned width (0: left).
struct Cell {
    x: f32,
    text: String,
    bold: bool,
    size: f32,
    /// Right-aligned: the text ends at `x` (an estimate from the average glyph width).
    right: bool,
}

/// A simple paginated text layout: rows of cells from top to bottom.
#[derive(Default)]
pub struct Layout {
    rows: Vec<(Vec<Cell>, f32)>,
}

impl Layout {
    pub fn text(&mut self, x: f32, text: impl Into<String>, size: f32, bold: bool) -> &mut Self {
        self.rows.push((
            vec![Cell {
                x,
                text: text.into(),
                bold,
                size,
                right: false,
            }],
            size + 4.0,
        ));
        self
    }

    pub fn gap(&mut self, height: f32) -> &mut Self {
        self.rows.push((Vec::new(), height));
        self
    }

    /// A table row: cells (x, text, right-aligned).
    fn row(&mut self, cells: &[(f32, String, bool)], bold: bool) -> &mut Self {
        self.rows.push((
            cells
                .iter()
                .map(|(x, text, right)| Cell {
                    x: *x,
                    text: text.clone(),
                    bold,
                    size: 9.5,
                    right: *right,
                })
                .collect(),
            LINE,
        ));
        self
    }

    /// The PDF: pages of A4 with Helvetica, `title` in the document info.
    pub fn render(&self, title: &str) -> Vec<u8> {
        let catalog_id = Ref::new(1);
        let tree_id = Ref::new(2);
        let regular_id = Ref::new(3);
        let bold_id = Ref::new(4);
        let info_id = Ref::new(5);
        let first_page = 6;
        let mut pages: Vec<Content> = vec![Content::new()];
        let mut y = PAGE_HEIGHT - MARGIN;
        for (cells, height) in &self.rows {
            if y - height < MARGIN {
                pages.push(Content::new());
                y = PAGE_HEIGHT - MARGIN;
            }
            y -= height;
            let Some(content) = pages.last_mut() else {
                continue;
            };
            for cell in cells {
                let bytes = win_ansi(&cell.text);
                // Helvetica's glyphs average about half the font size in width.
                let width = bytes.len() as f32 * cell.size * 0.5;
                let x = if cell.right { cell.x - width } else { cell.x };
                content.begin_text();
                content.set_font(Name(if cell.bold { b"F2" } else { b"F1" }), cell.size);
                content.next_line(x, y);
                content.show(Str(&bytes));
                content.end_text();
            }
        }
        let mut pdf = Pdf::new();
        pdf.catalog(catalog_id).pages(tree_id);
        let page_ids: Vec<Ref> = (0..pages.len())
            .map(|i| Ref::new(first_page + 2 * i as i32))
            .collect();
        pdf.pages(tree_id)
            .kids(page_ids.iter().copied())
            .count(pages.len() as i32);
        for (content, page_id) in pages.into_iter().zip(&page_ids) {
            let content_id = Ref::new(page_id.get() + 1);
            let mut page = pdf.page(*page_id);
            page.media_box(Rect::new(0.0, 0.0, PAGE_WIDTH, PAGE_HEIGHT))
                .parent(tree_id)
                .contents(content_id);
            let mut resources = page.resources();
            resources
                .fonts()
                .pair(Name(b"F1"), regular_id)
                .pair(Name(b"F2"), bold_id);
            resources.finish();
            page.finish();
            pdf.stream(content_id, &content.finish());
        }
        pdf.type1_font(regular_id)
            .base_font(Name(b"Helvetica"))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
        pdf.type1_font(bold_id)
            .base_font(Name(b"Helvetica-Bold"))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
        pdf.document_info(info_id)
            .title(TextStr(title))
            .producer(TextStr("Salesroom"));
        pdf.finish()
    }
}

fn money(value: &Value) -> String {
    format!("{:.2} €", value.as_f64().unwrap_or(0.0)).replace('.', ",")
}

fn address_lines(address: &Value) -> Vec<String> {
    let text = |key: &str| address[key].as_str().unwrap_or_default().to_owned();
    let mut lines = Vec::new();
    if !text("company").is_empty() {
        lines.push(text("company"));
    }
    lines.push(
        format!("{} {}", text("firstName"), text("lastName"))
            .trim()
            .to_owned(),
    );
    lines.push(text("street"));
    for extra in ["additionalAddressLine1", "additionalAddressLine2"] {
        if !text(extra).is_empty() {
            lines.push(text(extra));
        }
    }
    lines.push(
        format!("{} {}", text("zipcode"), text("city"))
            .trim()
            .to_owned(),
    );
    let country = address["country"]["translated"]["name"]
        .as_str()
        .or(address["country"]["name"].as_str())
        .unwrap_or_default();
    if !country.is_empty() {
        lines.push(country.to_owned());
    }
    lines
}

/// The invoice's columns: quantity, item, tax rate, unit price, total.
fn columns() -> (f32, f32, f32, f32, f32) {
    (MARGIN, MARGIN + 34.0, 360.0, 450.0, PAGE_WIDTH - MARGIN)
}

/// The invoice's head: shop, billing address, number, dates, customer, shipping address.
fn invoice_head(
    layout: &mut Layout,
    order: &Value,
    kind: &str,
    number: &str,
    date: &str,
    de: bool,
) {
    let t = |en: &'static str, german: &'static str| if de { german } else { en };
    let locale = if de { Locale::De } else { Locale::En };
    layout.text(MARGIN, "Salesroom Demo Shop", 9.0, false);
    layout.gap(12.0);
    for line in address_lines(&order["billingAddress"]) {
        layout.text(MARGIN, line, 10.5, false);
    }
    layout.gap(20.0);
    layout.text(
        MARGIN,
        format!("{} {number}", type_name(kind, locale)),
        18.0,
        true,
    );
    layout.gap(6.0);
    let order_number = order["orderNumber"].as_str().unwrap_or_default();
    layout.text(
        MARGIN,
        format!("{}: {order_number}", t("Order number", "Bestellnummer")),
        10.0,
        false,
    );
    layout.text(
        MARGIN,
        format!(
            "{}: {}",
            t("Order date", "Bestelldatum"),
            order["orderDate"].as_str().unwrap_or_default()
        ),
        10.0,
        false,
    );
    layout.text(
        MARGIN,
        format!(
            "{}: {}",
            if kind == "invoice" {
                t("Invoice date", "Rechnungsdatum")
            } else {
                t("Date", "Datum")
            },
            date.get(..10).unwrap_or(date)
        ),
        10.0,
        false,
    );
    let customer = &order["orderCustomer"];
    layout.text(
        MARGIN,
        format!(
            "{}: {} ({})",
            t("Customer", "Kunde"),
            customer["customerNumber"].as_str().unwrap_or_default(),
            customer["email"].as_str().unwrap_or_default()
        ),
        10.0,
        false,
    );
    if let Some(shipping) = order["deliveries"]
        .as_array()
        .and_then(|d| d.first())
        .map(|d| &d["shippingOrderAddress"])
    {
        layout.gap(8.0);
        layout.text(MARGIN, t("Shipping address", "Lieferadresse"), 10.0, true);
        for line in address_lines(shipping) {
            layout.text(MARGIN, line, 10.0, false);
        }
    }
}

/// The invoice's line items under their column titles.
fn invoice_items(layout: &mut Layout, order: &Value, de: bool) {
    let t = |en: &'static str, german: &'static str| if de { german } else { en };
    layout.gap(16.0);
    let (qty, name, tax, unit, total) = columns();
    layout.row(
        &[
            (qty, t("Qty", "Menge").into(), false),
            (name, t("Item", "Artikel").into(), false),
            (tax, t("Tax", "MwSt.").into(), false),
            (unit, t("Unit price", "Einzelpreis").into(), true),
            (total, t("Total", "Gesamt").into(), true),
        ],
        true,
    );
    for item in order["lineItems"].as_array().into_iter().flatten() {
        let mut label = item["label"].as_str().unwrap_or_default().to_owned();
        if let Some(number) = item["payload"]["productNumber"].as_str() {
            label = format!("{label} ({number})");
        }
        if label.chars().count() > 52 {
            label = label.chars().take(50).collect::<String>() + "…";
        }
        let rate = item["price"]["calculatedTaxes"][0]["taxRate"]
            .as_f64()
            .map(|r| format!("{r} %"))
            .unwrap_or_default();
        layout.row(
            &[
                (qty, item["quantity"].to_string(), false),
                (name, label, false),
                (tax, rate, false),
                (unit, money(&item["unitPrice"]), true),
                (total, money(&item["totalPrice"]), true),
            ],
            false,
        );
    }
}

/// The invoice's sums: items, shipping, net, each tax, total.
fn invoice_sums(layout: &mut Layout, order: &Value, de: bool) {
    let t = |en: &'static str, german: &'static str| if de { german } else { en };
    layout.gap(10.0);
    let (.., tax, _, total) = columns();
    let price = &order["price"];
    let sums: Vec<(String, String, bool)> = {
        let mut sums = vec![
            (
                t("Items", "Positionen").to_owned(),
                money(&price["positionPrice"]),
                false,
            ),
            (
                t("Shipping costs", "Versandkosten").to_owned(),
                money(&order["shippingTotal"]),
                false,
            ),
            (
                t("Total net", "Gesamtsumme netto").to_owned(),
                money(&price["netPrice"]),
                false,
            ),
        ];
        for tax in price["calculatedTaxes"].as_array().into_iter().flatten() {
            sums.push((
                format!("{} {} %", t("plus VAT", "zzgl. MwSt."), tax["taxRate"]),
                money(&tax["tax"]),
                false,
            ));
        }
        sums.push((
            t("Total", "Gesamtsumme").to_owned(),
            money(&price["totalPrice"]),
            true,
        ));
        sums
    };
    for (label, value, bold) in sums {
        layout.row(&[(tax, label, false), (total, value, true)], bold);
    }
}

/// The invoice of `order` (a loaded order entity) as a PDF.
pub fn invoice_pdf(order: &Value, number: &str, date: &str, locale: Locale) -> Vec<u8> {
    let de = locale == Locale::De;
    let t = |en: &'static str, german: &'static str| if de { german } else { en };
    let mut layout = Layout::default();
    invoice_head(&mut layout, order, "invoice", number, date, de);
    invoice_items(&mut layout, order, de);
    invoice_sums(&mut layout, order, de);
    layout.gap(24.0);
    let payment = order["transactions"]
        .as_array()
        .and_then(|t| t.last())
        .map(|t| {
            t["paymentMethod"]["translated"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        });
    if let Some(payment) = payment {
        layout.text(
            MARGIN,
            format!("{}: {payment}", t("Payment method", "Zahlungsart")),
            10.0,
            false,
        );
    }
    layout.text(
        MARGIN,
        t(
            "Thank you for your order.",
            "Vielen Dank für Ihre Bestellung.",
        ),
        10.0,
        false,
    );
    layout.render(&format!("{} {number}", t("Invoice", "Rechnung")))
}

/// A document of `kind` for `order` as a PDF. A delivery note lists the items without
/// prices; a credit note and a cancellation invoice name the invoice they refer to.
pub fn document_pdf(
    kind: &str,
    order: &Value,
    number: &str,
    date: &str,
    locale: Locale,
    refers_to: Option<&str>,
) -> Vec<u8> {
    if kind == "invoice" {
        return invoice_pdf(order, number, date, locale);
    }
    let de = locale == Locale::De;
    let t = |en: &'static str, german: &'static str| if de { german } else { en };
    let mut layout = Layout::default();
    invoice_head(&mut layout, order, kind, number, date, de);
    if let Some(invoice) = refers_to {
        layout.text(
            MARGIN,
            format!("{}: {invoice}", t("For invoice", "Zur Rechnung")),
            10.0,
            false,
        );
    }
    if kind == "delivery_note" {
        layout.gap(16.0);
        let (qty, name, ..) = columns();
        layout.row(
            &[
                (qty, t("Qty", "Menge").into(), false),
                (name, t("Item", "Artikel").into(), false),
            ],
            true,
        );
        for item in order["lineItems"].as_array().into_iter().flatten() {
            if item["type"] != "product" {
                continue;
            }
            let mut label = item["label"].as_str().unwrap_or_default().to_owned();
            if let Some(number) = item["payload"]["productNumber"].as_str() {
                label = format!("{label} ({number})");
            }
            layout.row(
                &[
                    (qty, item["quantity"].to_string(), false),
                    (name, label, false),
                ],
                false,
            );
        }
    } else {
        invoice_items(&mut layout, order, de);
        invoice_sums(&mut layout, order, de);
        layout.gap(16.0);
        layout.text(
            MARGIN,
            if kind == "storno" {
                t(
                    "This document cancels the invoice named above.",
                    "Dieses Dokument storniert die oben genannte Rechnung.",
                )
            } else {
                t(
                    "The amount above is credited to you.",
                    "Der oben genannte Betrag wird Ihnen gutgeschrieben.",
                )
            },
            10.0,
            false,
        );
    }
    layout.render(&format!("{} {number}", type_name(kind, locale)))
}

/// Writes the invoice document of `order` (number from its range, a new deep link code).
pub fn create_invoice(tx: &Transaction, order: &Value, locale: Locale) -> anyhow::Result<String> {
    Ok(create_document(tx, "invoice", order, locale, None)?.0)
}

/// Writes a document of `kind` for `order` (number from the type's range, a new deep
/// link code), referring to the document `refers_to` (id, number) if given; answers its
/// id and deep link code.
pub fn create_document(
    tx: &Transaction,
    kind: &str,
    order: &Value,
    locale: Locale,
    refers_to: Option<(&str, &str)>,
) -> rusqlite::Result<(String, String)> {
    let id = new_id();
    let number = super::number::next_number(tx, kind)?;
    let now = now_rfc3339();
    let pdf = document_pdf(
        kind,
        order,
        &number,
        &now,
        locale,
        refers_to.map(|(_, n)| n),
    );
    let prefix = type_name(kind, locale).to_lowercase().replace(' ', "_");
    let code = new_id() + &new_id();
    tx.execute(
        "INSERT INTO order_document (id, order_id, document_type, document_number, deep_link_code, file_name, content, referenced_document_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![id, order["id"].as_str().unwrap_or_default(), kind, number, code, format!("{prefix}_{number}"), pdf, refers_to.map(|(i, _)| i), now],
    )?;
    Ok((id, code))
}

fn document_not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "DOCUMENT__DOCUMENT_NOT_FOUND",
        format!("The document with id \"{id}\" is invalid or could not be found."),
    )
}

/// A document's file and what decides who may have it.
struct StoredDocument {
    file_name: String,
    content: Vec<u8>,
    owner: Option<String>,
    guest: bool,
    email: String,
    zipcode: Option<String>,
}

/// `GET|POST /store-api/document/download/{documentId}/{deepLinkCode}`: the PDF, for
/// the order's customer (logged in), or for a guest order with its `email` and
/// `zipcode` (query or body).
pub async fn download(
    ctx: ShopContext,
    client: crate::security::ClientAddr,
    State(app): State<App>,
    Path((id, code)): Path<(String, String)>,
    RequestParams(params): RequestParams,
) -> ApiResult<Response> {
    let id = id.to_lowercase();
    if !is_id(&id) {
        return Err(document_not_found(&id));
    }
    // Deep link codes and guests' postal codes cannot be guessed (throttled per client
    // address and per code).
    let guessed = super::load::GuestLookup::start(&app, &client, code.clone())?;
    let lookup = id.clone();
    let found = app
        .db
        .call(move |conn| {
            let document = conn
                .query_row(
                    "SELECT d.file_name, d.content, o.customer_id, COALESCE(c.guest, 1), o.customer_email, a.zipcode
                     FROM order_document d JOIN shop_order o ON o.id = d.order_id
                     LEFT JOIN customer c ON c.id = o.customer_id LEFT JOIN order_address a ON a.id = o.billing_address_id
                     WHERE d.id = ?1 AND d.deep_link_code = ?2 AND o.sales_channel_id = ?3",
                    [&lookup, &code, &ctx.sales_channel.id],
                    |r| {
                        Ok(StoredDocument {
                            file_name: r.get(0)?,
                            content: r.get(1)?,
                            owner: r.get(2)?,
                            guest: r.get(3)?,
                            email: r.get(4)?,
                            zipcode: r.get(5)?,
                        })
                    },
                )
                .optional()?;
            let Some(StoredDocument { file_name, content, owner, guest, email, zipcode }) = document else {
                return Ok(Err(document_not_found(&lookup)));
            };
            let customer = super::load::session_customer(conn, &ctx)?;
            if customer.is_some() && customer == owner {
                return Ok(Ok((file_name, content)));
            }
            if customer.is_some() && !guest {
                // Another customer's document: as if it did not exist.
                return Ok(Err(document_not_found(&lookup)));
            }
            Ok(super::load::guest_check(&params, guest, &email, zipcode.as_deref()).map(|()| (file_name, content)))
        })
        .await?;
    let (file_name, content) = super::load::GuestLookup::end(Some(guessed), found)?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{file_name}.pdf\""),
            ),
        ],
        content,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_becomes_a_pdf_with_pages_as_needed() {
        let mut layout = Layout::default();
        for i in 0..120 {
            layout.text(MARGIN, format!("Zeile {i}: Grüße, 12,50 €"), 10.0, false);
        }
        let pdf = layout.render("Test");
        assert!(pdf.starts_with(b"%PDF-"));
        assert!(pdf.ends_with(b"%%EOF") || pdf.ends_with(b"%%EOF\n"));
        let text = String::from_utf8_lossy(&pdf);
        assert!(
            text.contains("/Count 3"),
            "120 lines of 14 pt need three A4 pages"
        );
    }

    #[test]
    fn the_invoice_is_written_in_the_order_language() {
        let order = serde_json::json!({
            "orderNumber": "10042",
            "orderDate": "2026-11-26",
            "billingAddress": {"firstName": "Jörg", "lastName": "Müller", "street": "Hauptstraße 1", "zipcode": "10115", "city": "Berlin", "country": {"translated": {"name": "Deutschland"}}},
            "orderCustomer": {"customerNumber": "SW1", "email": "j@example.com"},
            "lineItems": [{"label": "Shirt", "quantity": 2, "unitPrice": 10.0, "totalPrice": 20.0, "payload": {"productNumber": "SR1"}, "price": {"calculatedTaxes": [{"taxRate": 19.0}]}}],
            "price": {"positionPrice": 20.0, "netPrice": 16.81, "totalPrice": 20.0, "calculatedTaxes": [{"taxRate": 19.0, "tax": 3.19}]},
            "shippingTotal": 0.0,
        });
        let german = invoice_pdf(&order, "1007", "2026-11-26T10:00:00Z", Locale::De);
        let english = invoice_pdf(&order, "1007", "2026-11-26T10:00:00Z", Locale::En);
        // ASCII lines are literal strings, others hex strings of their WinAnsi bytes.
        let contains = |pdf: &[u8], text: &str| {
            let bytes = win_ansi(text);
            let hex: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
            let pdf = String::from_utf8_lossy(pdf).to_uppercase();
            pdf.contains(&text.to_uppercase()) || pdf.contains(&hex)
        };
        assert!(
            contains(&german, "Rechnung 1007")
                && contains(&german, "Hauptstraße 1")
                && contains(&german, "10042")
        );
        assert!(contains(&german, "20,00 €") && contains(&german, "3,19 €"));
        assert!(contains(&english, "Invoice 1007") && !contains(&english, "Rechnung"));
    }

    #[test]
    fn text_is_encoded_for_win_ansi() {
        assert_eq!(
            win_ansi("Grüße €"),
            vec![b'G', b'r', 0xfc, 0xdf, b'e', b' ', 0x80]
        );
        assert_eq!(win_ansi("猫"), b"?".to_vec());
    }
}
