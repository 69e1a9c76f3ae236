//! Rich text (product and category descriptions, slide notes) is sanitised on write with
//! an allow-list (issue #29 item 7): formatting, lists, headings, quotes, tables, images
//! and links to `http(s)`, `mailto` and `tel` stay; every other tag goes with its
//! attributes (`<style>`, `<form>`, `<svg>`, `<iframe>`, scripts and their content), as
//! do `style`, `class` and event attributes. Links get `rel="noopener noreferrer"`. The
//! browser sanitises again when it shows the text (DOMPurify): a second wall.

use std::collections::HashSet;
use std::sync::LazyLock;

/// The tags a stored rich text may hold.
const TAGS: [&str; 33] = [
    "p",
    "br",
    "hr",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "sub",
    "sup",
    "small",
    "mark",
    "span",
    "div",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "blockquote",
    "pre",
    "code",
    "a",
    "img",
    "table",
    "thead",
    "tbody",
    "tr",
];

static CLEANER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let mut builder = ammonia::Builder::empty();
    builder
        .add_tags(TAGS)
        .add_tags(["th", "td", "caption"])
        .add_tag_attributes("a", ["href", "title", "target"])
        .add_tag_attributes("img", ["src", "alt", "title", "width", "height"])
        .add_tag_attributes("th", ["colspan", "rowspan"])
        .add_tag_attributes("td", ["colspan", "rowspan"])
        .url_schemes(HashSet::from(["http", "https", "mailto", "tel"]))
        .link_rel(Some("noopener noreferrer"))
        .clean_content_tags(HashSet::from([
            "script", "style", "title", "textarea", "noscript",
        ]));
    builder
});

/// `html` with only the allowed tags, attributes and link schemes.
pub fn clean(html: &str) -> String {
    CLEANER.clean(html).to_string()
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn formatting_and_safe_links_stay() {
        let html = "<p>Hello <strong>bold</strong> <em>it</em></p><ul><li>one</li></ul><a href=\"https://shop.example/x\" target=\"_blank\">link</a>";
        assert_eq!(
            clean(html),
            "<p>Hello <strong>bold</strong> <em>it</em></p><ul><li>one</li></ul><a href=\"https://shop.example/x\" target=\"_blank\" rel=\"noopener noreferrer\">link</a>"
        );
        assert_eq!(
            clean("<table><tbody><tr><td colspan=\"2\">x</td></tr></tbody></table>"),
            "<table><tbody><tr><td colspan=\"2\">x</td></tr></tbody></table>"
        );
    }

    #[test]
    fn styles_forms_svg_scripts_and_handlers_go() {
        let hostile = "<style>body{display:none}</style><form action=\"https://evil.example\"><input name=\"password\"><button>Log in</button></form>\
                       <svg onload=\"alert(1)\"><circle r=\"9\"/></svg><script>alert(2)</script><p style=\"position:fixed\" class=\"x\" onclick=\"alert(3)\">text</p>\
                       <a href=\"javascript:alert(4)\">a</a><img src=\"x\" onerror=\"alert(5)\"><iframe src=\"https://evil.example\"></iframe>";
        let clean = clean(hostile);
        for gone in [
            "<style",
            "display:none",
            "<form",
            "<input",
            "<button",
            "<svg",
            "<circle",
            "<script",
            "alert",
            "style=",
            "class=",
            "onclick",
            "javascript:",
            "<iframe",
            "onerror",
        ] {
            assert!(!clean.contains(gone), "{gone} in {clean}");
        }
        assert!(
            clean.contains("<p>text</p>") && clean.contains("Log in"),
            "{clean}"
        );
    }
}
