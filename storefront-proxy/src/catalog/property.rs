//! Property groups and their options (`property_group`, `property_group_option`).

use std::collections::HashMap;

use rusqlite::Connection;
use serde_json::{json, Value};

use crate::storage::json_ids;
use crate::storage::translation::{self, LanguageChain};

const GROUP_FIELDS: &[(&str, &str)] = &[("name", "name"), ("description", "description")];
const OPTION_FIELDS: &[(&str, &str)] = &[("name", "name")];

/// Property groups by id, without options.
pub fn load_groups(
    conn: &Connection,
    chain: &LanguageChain,
    ids: &[String],
) -> rusqlite::Result<HashMap<String, Value>> {
    let texts = translation::load(
        conn,
        "property_group_translation",
        "property_group_id",
        GROUP_FIELDS,
        ids,
        chain,
    )?;
    let mut statement = conn.prepare_cached(
        "SELECT id, display_type, sorting_type, filterable, visible_on_product_detail_page, position
         FROM property_group WHERE id IN (SELECT value FROM json_each(?1))",
    )?;
    let rows = statement.query_map([json_ids(ids)], |r| {
        let id: String = r.get(0)?;
        let translated = translation::get(&texts, &id, GROUP_FIELDS);
        Ok((
            id.clone(),
            json!({
                "id": id,
                "name": translated["name"],
                "description": translated["description"],
                "displayType": r.get::<_, String>(1)?,
                "sortingType": r.get::<_, String>(2)?,
                "filterable": r.get::<_, bool>(3)?,
                "visibleOnProductDetailPage": r.get::<_, bool>(4)?,
                "position": r.get::<_, i64>(5)?,
                "translated": translated,
                "apiAlias": "property_group",
            }),
        ))
    })?;
    rows.collect()
}

/// Options by id, each with its `group`.
pub fn load_options(
    conn: &Connection,
    chain: &LanguageChain,
    ids: &[String],
) -> rusqlite::Result<HashMap<String, Value>> {
    let texts = translation::load(
        conn,
        "property_group_option_translation",
        "property_group_option_id",
        OPTION_FIELDS,
        ids,
        chain,
    )?;
    let mut statement = conn.prepare_cached(
        "SELECT id, property_group_id, position, color_hex_code, media_id
         FROM property_group_option WHERE id IN (SELECT value FROM json_each(?1))",
    )?;
    let rows = statement
        .query_map([json_ids(ids)], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, Option<String>>(4)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut group_ids: Vec<String> = rows.iter().map(|r| r.1.clone()).collect();
    group_ids.sort();
    group_ids.dedup();
    let groups = load_groups(conn, chain, &group_ids)?;
    Ok(rows
        .into_iter()
        .map(|(id, group_id, position, color, media_id)| {
            let translated = translation::get(&texts, &id, OPTION_FIELDS);
            let option = json!({
                "id": id,
                "groupId": group_id,
                "name": translated["name"],
                "position": position,
                "colorHexCode": color,
                "mediaId": media_id,
                "translated": translated,
                "group": groups.get(&group_id).cloned().unwrap_or(Value::Null),
                "apiAlias": "property_group_option",
            });
            (id, option)
        })
        .collect())
}

/// Orders options by their group's position, then their own position and name.
pub fn sort_options(options: &mut [Value]) {
    options.sort_by(|a, b| {
        let key = |o: &Value| {
            (
                o["group"]["position"].as_i64().unwrap_or(0),
                o["groupId"].as_str().unwrap_or_default().to_owned(),
                o["position"].as_i64().unwrap_or(0),
                o["name"].as_str().unwrap_or_default().to_owned(),
            )
        };
        key(a).cmp(&key(b))
    });
}

/// Groups with their `options` (those of `option_ids`), ordered by position.
pub fn groups_with_options(
    conn: &Connection,
    chain: &LanguageChain,
    option_ids: &[String],
) -> rusqlite::Result<Vec<Value>> {
    let options = load_options(conn, chain, option_ids)?;
    let mut options: Vec<Value> = options.into_values().collect();
    sort_options(&mut options);
    let mut groups: Vec<Value> = Vec::new();
    for mut option in options {
        let group = option["group"].take();
        option.as_object_mut().map(|o| o.remove("group"));
        match groups.iter_mut().find(|g| g["id"] == group["id"]) {
            Some(existing) => existing["options"]
                .as_array_mut()
                .into_iter()
                .for_each(|list| list.push(option.clone())),
            None => {
                let mut group = group;
                group["options"] = json!([option]);
                groups.push(group);
            }
        }
    }
    Ok(groups)
}
