//! The shop's pages by name (`privacy`, `tos`, `imprint`): which CMS page each is. As
//! Shopware links its legal pages, the basic information's settings come first
//! (`core.basicInformation.privacyPage`, `tosPage`, `imprintPage` in `system_config`,
//! a CMS page id each), then the digital sales rooms' `dsr_shop_page`. The room's
//! `GET /store-api/dsr/shop-pages/{name}` and the backoffice's legal pages
//! (`admin_api::legal_pages`) read them here.

use rusqlite::{Connection, OptionalExtension};

/// The basic information's setting of a shop page, by its name.
pub fn config_key(name: &str) -> Option<&'static str> {
    match name {
        "privacy" => Some("core.basicInformation.privacyPage"),
        "tos" => Some("core.basicInformation.tosPage"),
        "imprint" => Some("core.basicInformation.imprintPage"),
        _ => None,
    }
}

/// The CMS page of the shop page `name` (a shop-wide setting naming an existing page,
/// else `dsr_shop_page`); `name` may also be a CMS page id named there.
pub fn page_id(conn: &Connection, name: &str) -> rusqlite::Result<Option<String>> {
    if let Some(key) = config_key(name) {
        let configured: Option<String> = conn
            .query_row(
                "SELECT p.id FROM system_config c JOIN cms_page p
                     ON p.id = json_extract(c.configuration_value, '$')
                 WHERE c.configuration_key = ?1 AND c.sales_channel_id = ''",
                [key],
                |r| r.get(0),
            )
            .optional()?;
        if configured.is_some() {
            return Ok(configured);
        }
    }
    conn.query_row(
        "SELECT cms_page_id FROM dsr_shop_page WHERE layout_name = ?1 OR cms_page_id = ?1",
        [name],
        |r| r.get(0),
    )
    .optional()
}
