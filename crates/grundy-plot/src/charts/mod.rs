//! The three pictures, each built as a [`Scene`] that both backends draw: a nim-sequence
//! ([`sequence`]), a two-heap table ([`grid`]), a graph game ([`graph`]).

pub mod graph;
pub mod grid;
pub mod sequence;

use crate::render::{Anchor, Color, INK, LABEL_SIZE, Scene, Shape, TICK_SIZE, TITLE_SIZE, text_width};

/// The title, centred at the top; smaller, and then cut, when it is too long for the picture.
fn title(scene: &mut Scene, text: &str) {
    let room = f64::from(scene.width) - 20.0;
    let size = if text_width(text, TITLE_SIZE) <= room { TITLE_SIZE } else { 8.0 };
    let mut text = text.to_owned();
    if text_width(&text, size) > room {
        let keep = (room / text_width("m", size)) as usize;
        text = text.chars().take(keep.saturating_sub(2)).chain("..".chars()).collect();
    }
    let at = (f64::from(scene.width) / 2.0, 28.0);
    scene.push(Shape::Text { at, text, size, color: INK, anchor: Anchor::Middle, vertical: false });
}

/// How a legend entry is marked.
#[derive(Clone, Copy, Debug)]
enum Swatch {
    Disc(Color),
    Square(Color),
}

/// Draws legend entries in a row from `x` at height `y`, wrapping before `right`; returns
/// the height of the last row's centre.
fn legend_row(scene: &mut Scene, mut x: f64, mut y: f64, right: f64, entries: &[(Swatch, String)]) -> f64 {
    let start = x;
    for (swatch, label) in entries {
        let width = 22.0 + text_width(label, TICK_SIZE) + 24.0;
        if x > start && x + width > right {
            x = start;
            y += 24.0;
        }
        draw_swatch(scene, (x + 7.0, y), *swatch);
        scene.text((x + 20.0, y), label.clone(), TICK_SIZE, Anchor::Start);
        x += width;
    }
    y
}

fn draw_swatch(scene: &mut Scene, center: (f64, f64), swatch: Swatch) {
    match swatch {
        Swatch::Disc(color) => {
            scene.push(Shape::Circle { center, radius: 6.0, fill: Some(color), stroke: Some((INK, 1.0)) });
        }
        Swatch::Square(color) => {
            let (x, y) = (center.0 - 7.0, center.1 - 7.0);
            scene.push(Shape::Rect { x, y, width: 14.0, height: 14.0, fill: color });
            scene.push(Shape::Frame { x, y, width: 14.0, height: 14.0, stroke: INK, line_width: 1.0 });
        }
    }
}

/// The plotting area of a chart with axes, in pixels.
#[derive(Clone, Copy, Debug)]
struct Area {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
}

impl Area {
    fn bottom(&self) -> f64 {
        self.y + self.height
    }
    fn right(&self) -> f64 {
        self.x + self.width
    }
}

/// The frame of `area`, tick marks with labels at the given positions (pixels along the
/// axis), and the axis labels.
fn axes(
    scene: &mut Scene,
    area: Area,
    x_ticks: &[(f64, String)],
    y_ticks: &[(f64, String)],
    x_label: &str,
    y_label: &str,
) {
    scene.push(Shape::Frame {
        x: area.x,
        y: area.y,
        width: area.width,
        height: area.height,
        stroke: INK,
        line_width: 1.0,
    });
    for (x, label) in x_ticks {
        scene.push(Shape::Line {
            from: (*x, area.bottom()),
            to: (*x, area.bottom() + 5.0),
            stroke: INK,
            line_width: 1.0,
            dash: None,
        });
        scene.text((*x, area.bottom() + 16.0), label.clone(), TICK_SIZE, Anchor::Middle);
    }
    for (y, label) in y_ticks {
        scene.push(Shape::Line {
            from: (area.x - 5.0, *y),
            to: (area.x, *y),
            stroke: INK,
            line_width: 1.0,
            dash: None,
        });
        scene.text((area.x - 8.0, *y), label.clone(), TICK_SIZE, Anchor::End);
    }
    scene.text((area.x + area.width / 2.0, area.bottom() + 44.0), x_label, LABEL_SIZE, Anchor::Middle);
    let widest_tick = y_ticks.iter().map(|(_, label)| text_width(label, TICK_SIZE)).fold(0.0, f64::max);
    scene.push(Shape::Text {
        at: (area.x - 8.0 - widest_tick - 20.0, area.y + area.height / 2.0),
        text: y_label.to_owned(),
        size: LABEL_SIZE,
        color: INK,
        anchor: Anchor::Middle,
        vertical: true,
    });
}

/// The left edge of a chart's area that leaves room for the y tick labels and the axis label.
fn left_margin(y_ticks: &[(f64, String)]) -> f64 {
    let widest_tick = y_ticks.iter().map(|(_, label)| text_width(label, TICK_SIZE)).fold(0.0, f64::max);
    (widest_tick + 48.0).max(64.0)
}

/// The perceptually even "viridis" colour map (van der Walt and Smith, matplotlib), by linear
/// interpolation between five of its colours; `t` in 0 … 1.
fn viridis(t: f64) -> Color {
    const STOPS: [Color; 5] = [
        Color::rgb(0x44, 0x01, 0x54),
        Color::rgb(0x3b, 0x52, 0x8b),
        Color::rgb(0x21, 0x91, 0x8c),
        Color::rgb(0x5e, 0xc9, 0x62),
        Color::rgb(0xfd, 0xe7, 0x25),
    ];
    let scaled = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let index = (scaled.floor() as usize).min(STOPS.len() - 2);
    STOPS[index].mix(STOPS[index + 1], scaled - index as f64)
}
