//! A [`Scene`] as SVG text: plain shapes and `<text>` in a generic font family, so any
//! viewer draws it without the fonts of the machine that made it. Rasters are embedded as PNG
//! images already at their displayed size, so no viewer smooths them.

use super::{Anchor, Scene, Shape};
use crate::PlotError;
use base64::Engine;
use std::fmt::Write;

/// The SVG document for `scene`.
pub fn render(scene: &Scene) -> Result<String, PlotError> {
    let mut out = String::new();
    let (width, height) = (scene.width, scene.height);
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace">"#
    )?;
    writeln!(out, "<title>{}</title>", escape(&scene.title))?;
    writeln!(out, r#"<rect x="0" y="0" width="{width}" height="{height}" fill="{}"/>"#, scene.background.hex())?;
    for shape in &scene.shapes {
        write_shape(&mut out, shape)?;
    }
    writeln!(out, "</svg>")?;
    Ok(out)
}

fn write_shape(out: &mut String, shape: &Shape) -> Result<(), PlotError> {
    match shape {
        Shape::Rect { x, y, width, height, fill } => {
            writeln!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
                num(*x),
                num(*y),
                num(*width),
                num(*height),
                fill.hex()
            )?;
        }
        Shape::Frame { x, y, width, height, stroke, line_width } => {
            writeln!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="{}"/>"#,
                num(*x),
                num(*y),
                num(*width),
                num(*height),
                stroke.hex(),
                num(*line_width)
            )?;
        }
        Shape::Line { from, to, stroke, line_width, dash } => {
            let dash = dash.map_or_else(String::new, |dash| format!(r#" stroke-dasharray="{}""#, num(dash)));
            writeln!(
                out,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="{}"{dash}/>"#,
                num(from.0),
                num(from.1),
                num(to.0),
                num(to.1),
                stroke.hex(),
                num(*line_width)
            )?;
        }
        Shape::Circle { center, radius, fill, stroke } => {
            let fill = fill.map_or_else(|| "none".to_owned(), |fill| fill.hex());
            let stroke = stroke.map_or_else(String::new, |(color, width)| {
                format!(r#" stroke="{}" stroke-width="{}""#, color.hex(), num(width))
            });
            writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}"{stroke}/>"#,
                num(center.0),
                num(center.1),
                num(*radius)
            )?;
        }
        Shape::Polygon { points, fill } => {
            let points: Vec<String> = points.iter().map(|(x, y)| format!("{},{}", num(*x), num(*y))).collect();
            writeln!(out, r#"<polygon points="{}" fill="{}"/>"#, points.join(" "), fill.hex())?;
        }
        Shape::Text { at, text, size, color, anchor, vertical } => {
            let anchor = match anchor {
                Anchor::Start => "start",
                Anchor::Middle => "middle",
                Anchor::End => "end",
            };
            let (x, y) = (num(at.0), num(at.1));
            let rotate = if *vertical { format!(r#" transform="rotate(-90 {x} {y})""#) } else { String::new() };
            writeln!(
                out,
                r#"<text x="{x}" y="{y}" font-size="{}" fill="{}" text-anchor="{anchor}" dominant-baseline="central"{rotate}>{}</text>"#,
                num(*size),
                color.hex(),
                escape(text)
            )?;
        }
        Shape::Image { x, y, width, height, raster } => {
            let pixels = raster.resample(*width as usize, *height as usize);
            let png = super::png::encode(*width, *height, &pixels)?;
            let data = base64::engine::general_purpose::STANDARD.encode(png);
            writeln!(
                out,
                r#"<image x="{x}" y="{y}" width="{width}" height="{height}" preserveAspectRatio="none" style="image-rendering:pixelated" xlink:href="data:image/png;base64,{data}"/>"#
            )?;
        }
    }
    Ok(())
}

/// A coordinate with at most two decimals and no trailing zeros.
fn num(value: f64) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".to_owned() } else { text.to_owned() }
}

/// Text safe inside an element or an attribute: markup escaped, and `?` for every character
/// an XML 1.0 document may not hold or should not (a game's text can hold any).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if !fit_for_xml(c) => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// Whether `c` may stand in the SVG's text: not a control character (XML 1.0 forbids most
/// of them, a reference such as `&#1;` included, and discourages the rest) and not a
/// noncharacter (U+FFFE and U+FFFF are not XML characters at all, and U+FDD0–U+FDEF and the
/// last two of every plane are discouraged; strict parsers refuse them).
fn fit_for_xml(c: char) -> bool {
    let code = u32::from(c);
    !c.is_control() && !(0xfdd0..=0xfdef).contains(&code) && code & 0xfffe != 0xfffe
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Color;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
    }

    #[test]
    fn text_is_escaped() {
        let mut scene = Scene::new(10, 10, "a < b & \"c\"");
        scene.push(Shape::Text {
            at: (1.0, 1.0),
            text: "<x>".into(),
            size: 10.0,
            color: Color::BLACK,
            anchor: Anchor::Start,
            vertical: false,
        });
        let svg = render(&scene).unwrap();
        assert!(svg.contains("<title>a &lt; b &amp; &quot;c&quot;</title>"));
        assert!(svg.contains(">&lt;x&gt;</text>"));
    }

    #[test]
    fn noncharacters_become_question_marks() {
        let title = "a\u{fffe}b\u{ffff}c\u{fdd0}d\u{1fffe}e\u{10ffff}f\u{0}g\u{1b}h\u{85}i";
        let svg = render(&Scene::new(10, 10, title)).unwrap();
        assert!(svg.contains("<title>a?b?c?d?e?f?g?h?i</title>"), "{svg}");
        roxmltree::Document::parse(&svg).expect("well-formed XML");
        // Characters of every plane that are neither stay as they are.
        assert_eq!(
            escape("\u{fffd}\u{fdcf}\u{fdf0}\u{1fffd}\u{e000}囲"),
            "\u{fffd}\u{fdcf}\u{fdf0}\u{1fffd}\u{e000}囲"
        );
    }

    proptest::proptest! {
        /// Any title and any text make a well-formed SVG whose text reads back as written,
        /// each character XML cannot carry a `?`.
        #[test]
        fn any_text_makes_well_formed_xml(title in "\\PC*|.*", text in proptest::collection::vec(proptest::char::any(), 0..40)) {
            let text: String = text.into_iter().collect();
            let mut scene = Scene::new(10, 10, &title);
            scene.push(Shape::Text {
                at: (1.0, 1.0),
                text: text.clone(),
                size: 10.0,
                color: Color::BLACK,
                anchor: Anchor::Middle,
                vertical: true,
            });
            let svg = render(&scene).unwrap();
            let document = roxmltree::Document::parse(&svg);
            proptest::prop_assert!(document.is_ok(), "{:?}", document.err());
            let document = document.unwrap();
            let expected = |written: &str| -> String {
                written.chars().map(|c| if fit_for_xml(c) { c } else { '?' }).collect()
            };
            let read = |name: &str| {
                document.descendants().find(|node| node.has_tag_name(name)).and_then(|node| node.text()).unwrap_or("").to_owned()
            };
            proptest::prop_assert_eq!(read("title"), expected(&title));
            proptest::prop_assert_eq!(read("text"), expected(&text));
        }
    }
}
