//! The mail outbox. The embedded shop sends no real mail: every mail (password
//! recovery, newsletter confirmation, contact form, …) is stored in the `mail` table
//! and written as an `.eml` file under `DATA_DIR/mail/`, and logged.

pub mod text;

use std::path::{Path, PathBuf};

use anyhow::Context;
use mail_builder::MessageBuilder;
use rusqlite::{params, Connection, OptionalExtension};

use crate::storage::{new_id, now_rfc3339};

/// The shop's own address: sender of every mail, recipient of contact requests, unless
/// the merchant set another (`core.basicInformation.email`, see [`sender`]).
pub const SHOP_ADDRESS: &str = "shop@salesroom.example";
/// The sender's name unless the merchant set one (`core.basicInformation.shopName`).
pub const SHOP_NAME: &str = "Salesroom";

/// The sender of the shop's mails, name and address: the merchant's settings
/// (`admin::settings_api`, shop-wide values), else [`SHOP_NAME`] and [`SHOP_ADDRESS`].
pub fn sender(conn: &Connection) -> rusqlite::Result<(String, String)> {
    let setting = |key: &str| -> rusqlite::Result<Option<String>> {
        let text: Option<String> = conn
            .query_row(
                "SELECT configuration_value FROM system_config WHERE configuration_key = ?1 AND sales_channel_id = ''",
                [key],
                |r| r.get(0),
            )
            .optional()?;
        Ok(text
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .and_then(|value| value.as_str().map(str::to_owned))
            .filter(|value| !value.trim().is_empty()))
    };
    Ok((
        setting("core.basicInformation.shopName")?.unwrap_or_else(|| SHOP_NAME.to_owned()),
        setting("core.basicInformation.email")?.unwrap_or_else(|| SHOP_ADDRESS.to_owned()),
    ))
}

/// A plausible e-mail address: one `@`, something before it, a dot after it, no spaces.
pub fn is_address(address: &str) -> bool {
    let Some((local, domain)) = address.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && !address.chars().any(char::is_whitespace)
}

/// One outgoing mail.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// Where answers go (the customer, for contact requests).
    pub reply_to: Option<String>,
    /// Files sent along (an invitation's calendar entry).
    pub attachments: Vec<Attachment>,
}

/// A file attached to a mail.
#[derive(Debug, Clone)]
pub struct Attachment {
    pub content_type: String,
    pub file_name: String,
    pub content: Vec<u8>,
}

/// Stores `mail` in the outbox (inside the caller's transaction, if any) and writes
/// its `.eml` beside the database. Call it last before committing: a failure to write
/// the file fails the call, and so the caller's transaction.
pub fn send(conn: &Connection, mail: Mail) -> anyhow::Result<String> {
    let id = new_id();
    let created = now_rfc3339();
    conn.execute(
        "INSERT INTO mail (id, recipient, subject, body_text, body_html, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![id, mail.to, mail.subject, mail.text, mail.html, created],
    )?;
    let file = match outbox_dir(conn) {
        Some(dir) => {
            let eml = render(&mail, &id, &sender(conn)?)?;
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            // Sortable by time; the id keeps names unique.
            let name = format!("{}-{id}.eml", created.replace(':', ""));
            let path = dir.join(name);
            std::fs::write(&path, eml).with_context(|| format!("writing {}", path.display()))?;
            Some(path)
        }
        None => None,
    };
    tracing::info!(mail_id = %id, to = %mail.to, subject = %mail.subject, file = ?file, "mail stored in the outbox");
    Ok(id)
}

/// Forgets every mail sent to `recipient` (a customer's right to erasure): the outbox
/// rows and their `.eml` files; answers how many. Inside the caller's transaction: the
/// files go once the rows are deleted (a file already gone is no error).
pub fn forget(conn: &Connection, recipient: &str) -> anyhow::Result<usize> {
    let mut statement =
        conn.prepare("SELECT id, created_at FROM mail WHERE lower(recipient) = lower(?1)")?;
    let sent: Vec<(String, String)> = statement
        .query_map([recipient], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    conn.execute(
        "DELETE FROM mail WHERE lower(recipient) = lower(?1)",
        [recipient],
    )?;
    if let Some(dir) = outbox_dir(conn) {
        for (id, created) in &sent {
            let path = dir.join(format!("{}-{id}.eml", created.replace(':', "")));
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e).with_context(|| format!("removing {}", path.display())),
            }
        }
    }
    Ok(sent.len())
}

/// `DATA_DIR/mail` for a database file in `DATA_DIR`; none for an in-memory database.
fn outbox_dir(conn: &Connection) -> Option<PathBuf> {
    let path = conn.path().filter(|p| !p.is_empty())?;
    Some(Path::new(path).parent()?.join("mail"))
}

/// The mail as an RFC 5322 message with a text and an HTML part.
fn render(mail: &Mail, id: &str, (name, address): &(String, String)) -> anyhow::Result<String> {
    let mut message = MessageBuilder::new()
        .message_id(format!("{id}@salesroom.example"))
        .from((name.as_str(), address.as_str()))
        .to(mail.to.as_str())
        .subject(mail.subject.as_str())
        .text_body(mail.text.as_str())
        .html_body(mail.html.as_str());
    if let Some(reply_to) = &mail.reply_to {
        message = message.reply_to(reply_to.as_str());
    }
    for file in &mail.attachments {
        message = message.attachment(
            file.content_type.as_str(),
            file.file_name.as_str(),
            file.content.as_slice(),
        );
    }
    Ok(message.write_to_string()?)
}

/// Text made safe for an HTML body.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The `storefrontUrl` of a request that puts links into mails: required, and one of the
/// sales channel's domains (`SHOP_ENDPOINT`, `SHOP_DOMAINS`: [`Config::shop_origins`],
/// with or without a path below it), never taken from the request's `Host` or
/// `X-Forwarded-Host`: so no mail links to someone else's site. A foreign one is
/// Shopware's `VIOLATION::NO_SUCH_CHOICE_ERROR` at `/storefrontUrl`. Answers it without
/// a trailing slash.
///
/// [`Config::shop_origins`]: crate::config::Config::shop_origins
pub fn storefront_url(
    body: &serde_json::Map<String, serde_json::Value>,
    config: &crate::config::Config,
    violations: &mut Vec<crate::error::Violation>,
) -> Option<String> {
    use crate::error::Violation;
    let url = match body.get("storefrontUrl") {
        Some(serde_json::Value::String(url)) if !url.trim().is_empty() => {
            url.trim().trim_end_matches('/').to_owned()
        }
        Some(serde_json::Value::String(_)) | None | Some(serde_json::Value::Null) => {
            violations.push(Violation::blank("/storefrontUrl"));
            return None;
        }
        Some(_) => {
            violations.push(Violation::new(
                "VIOLATION::INVALID_TYPE_ERROR",
                "/storefrontUrl",
                "This value should be of type string.",
            ));
            return None;
        }
    };
    if is_shop_url(&url, &config.shop_origins()) {
        return Some(url);
    }
    violations.push(Violation::new(
        "VIOLATION::NO_SUCH_CHOICE_ERROR",
        "/storefrontUrl",
        "The value you selected is not a valid choice: the storefront URL is not a domain of this sales channel.",
    ));
    None
}

/// Whether `url` is one of `origins` or a path below one (compared without case in
/// the scheme and host), with nothing in it that could make a link leave the shop.
pub fn is_shop_url(url: &str, origins: &[String]) -> bool {
    if url.chars().any(|c| {
        c.is_whitespace() || c.is_control() || matches!(c, '"' | '<' | '>' | '\\' | '@' | '?' | '#')
    }) {
        return false;
    }
    origins.iter().any(|origin| {
        let origin = origin.trim_end_matches('/');
        let Some(head) = url.get(..origin.len()) else {
            return false;
        };
        let rest = &url[origin.len()..];
        !origin.is_empty()
            && head.eq_ignore_ascii_case(origin)
            && (rest.is_empty() || (rest.starts_with('/') && !rest.starts_with("//")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_an_eml_with_both_parts() {
        let mail = Mail {
            to: "ada@example.com".into(),
            subject: "Passwort zurücksetzen".into(),
            text: "Hallo Ada".into(),
            html: "<p>Hallo Ada</p>".into(),
            reply_to: None,
            attachments: Vec::new(),
        };
        let sender = ("Kite shop".to_owned(), "hello@kites.example".to_owned());
        let eml = render(&mail, "0123", &sender).unwrap();
        assert!(
            eml.contains("From: \"Kite shop\" <hello@kites.example>"),
            "{eml}"
        );
        assert!(
            eml.contains("To: <ada@example.com>") || eml.contains("To: ada@example.com"),
            "{eml}"
        );
        assert!(eml.contains("multipart/alternative"), "{eml}");
        assert!(
            !eml.contains("zurücksetzen"),
            "the subject is encoded: {eml}"
        );
        assert_eq!(
            escape_html("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn only_the_shops_own_origins_are_storefront_urls() {
        let origins = vec![
            "https://shop.example".to_owned(),
            "http://127.0.0.1:8000/".to_owned(),
        ];
        for ok in [
            "https://shop.example",
            "https://shop.example/de-DE",
            "HTTPS://Shop.Example/en",
            "http://127.0.0.1:8000",
        ] {
            assert!(is_shop_url(ok, &origins), "{ok}");
        }
        for foreign in [
            "http://evil.example",
            "https://shop.example.evil.example",
            "https://shop.example@evil.example",
            "https://shop.example:443@evil.example",
            "https://shop.example//evil.example",
            "https://shop.example/\\evil.example",
            "https://shop.example/a?next=x",
            "http://127.0.0.1:80001",
            "javascript:alert(1)",
        ] {
            assert!(!is_shop_url(foreign, &origins), "{foreign}");
        }
    }
}
