//! Generated product and banner images (SVG): a colour field with a simple shape and
//! a caption, so the demo shop needs no files from the internet.

/// Escapes text for SVG content.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A colour from a hue (0..360) as an HSL string.
fn hsl(hue: u32, saturation: u32, lightness: u32) -> String {
    format!("hsl({},{}%,{}%)", hue % 360, saturation, lightness)
}

/// A square product picture: background in `hue`, one of a few shapes chosen by
/// `variant`, and the caption.
pub fn product(caption: &str, hue: u32, variant: u32) -> String {
    let shape = match variant % 4 {
        0 => format!(r#"<circle cx="400" cy="360" r="190" fill="{}"/>"#, hsl(hue, 55, 45)),
        1 => format!(r#"<rect x="220" y="180" width="360" height="360" rx="40" fill="{}"/>"#, hsl(hue, 55, 45)),
        2 => format!(r#"<polygon points="400,150 620,540 180,540" fill="{}"/>"#, hsl(hue, 55, 45)),
        _ => format!(r#"<ellipse cx="400" cy="360" rx="250" ry="150" fill="{}"/>"#, hsl(hue, 55, 45)),
    };
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800"><rect width="800" height="800" fill="{}"/>{shape}<text x="400" y="690" font-family="sans-serif" font-size="44" text-anchor="middle" fill="{}">{}</text></svg>"#,
        hsl(hue, 60, 88),
        hsl(hue, 40, 20),
        escape(caption)
    )
}

/// A wide banner (1600x600) with a headline.
pub fn banner(headline: &str, hue: u32) -> String {
    // Without a headline the banner is a plain backdrop (for text laid over it).
    let caption = if headline.is_empty() {
        String::new()
    } else {
        format!(r#"<text x="800" y="320" font-family="sans-serif" font-size="80" text-anchor="middle" fill="white">{}</text>"#, escape(headline))
    };
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="600" viewBox="0 0 1600 600"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="{}"/><stop offset="1" stop-color="{}"/></linearGradient></defs><rect width="1600" height="600" fill="url(#g)"/>{caption}</svg>"#,
        hsl(hue, 60, 45),
        hsl(hue + 40, 60, 30),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn captions_are_escaped() {
        let svg = super::product("Salt & <Pepper>", 10, 1);
        assert!(svg.contains("Salt &amp; &lt;Pepper&gt;"));
        assert!(svg.starts_with("<svg"));
    }

    #[test]
    fn a_banner_without_headline_has_no_text() {
        assert!(super::banner("Spring & more", 100).contains("Spring &amp; more"));
        let backdrop = super::banner("", 100);
        assert!(!backdrop.contains("<text"));
        assert!(backdrop.ends_with("</svg>"));
    }
}
