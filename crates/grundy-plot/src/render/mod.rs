//! Pictures as a small scene of shapes, drawn by two backends: [`svg`] (text) and [`png`]
//! (pixels, with the public-domain 8×8 bitmap font of the `font8x8` crate, so no system font
//! is ever needed).
//!
//! A chart is built once as a [`Scene`]; each backend only knows how to draw the few shapes
//! below, so nothing about a chart is written twice.

pub mod png;
pub mod svg;

use crate::PlotError;

/// The two kinds of file a picture is written as, told by the file's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PictureFormat {
    /// SVG text ([`svg`]).
    Svg,
    /// A PNG image ([`png`]).
    Png,
}

impl PictureFormat {
    /// The format a file of this name is written in: by its suffix, `.svg` or `.png` in any
    /// case; none for another name.
    ///
    /// ```
    /// use grundy_plot::PictureFormat;
    /// assert_eq!(PictureFormat::of_path("out/Wythoff.PNG".as_ref()), Some(PictureFormat::Png));
    /// assert_eq!(PictureFormat::of_path("a.svg".as_ref()), Some(PictureFormat::Svg));
    /// assert_eq!(PictureFormat::of_path("a.jpg".as_ref()), None);
    /// ```
    pub fn of_path(path: &std::path::Path) -> Option<PictureFormat> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "svg" => Some(PictureFormat::Svg),
            "png" => Some(PictureFormat::Png),
            _ => None,
        }
    }

    /// Its name in messages and JSON: `svg` or `png`.
    pub fn name(self) -> &'static str {
        match self {
            PictureFormat::Svg => "svg",
            PictureFormat::Png => "png",
        }
    }

    /// The bytes of `scene` drawn in this format.
    ///
    /// # Errors
    /// As [`svg::render`] and [`png::render`].
    pub fn render(self, scene: &Scene) -> Result<Vec<u8>, PlotError> {
        match self {
            PictureFormat::Svg => Ok(svg::render(scene)?.into_bytes()),
            PictureFormat::Png => png::render(scene),
        }
    }
}

/// An opaque colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Color {
    /// Red, 0 … 255.
    pub r: u8,
    /// Green, 0 … 255.
    pub g: u8,
    /// Blue, 0 … 255.
    pub b: u8,
}

impl Color {
    /// White, the background of every picture.
    pub const WHITE: Color = Color::rgb(255, 255, 255);
    /// Black.
    pub const BLACK: Color = Color::rgb(0, 0, 0);

    /// The colour of these red, green and blue intensities.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color { r, g, b }
    }

    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    /// The colour `t` of the way from `self` to `other` (`t` in 0 … 1).
    pub fn mix(self, other: Color, t: f64) -> Color {
        let t = t.clamp(0.0, 1.0);
        let channel = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
        Color::rgb(channel(self.r, other.r), channel(self.g, other.g), channel(self.b, other.b))
    }
}

/// Where a text's anchor point sits along the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The text begins at the anchor point.
    Start,
    /// The text is centred on it.
    Middle,
    /// The text ends at it.
    End,
}

/// A grid of colours, row 0 at the top, drawn stretched over a rectangle without smoothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Raster {
    /// The number of columns.
    pub cols: usize,
    /// The number of rows.
    pub rows: usize,
    /// Row-major, `rows * cols` colours.
    pub pixels: Vec<Color>,
}

impl Raster {
    /// The raster resampled (nearest cell) to `width × height` pixels, row-major.
    pub fn resample(&self, width: usize, height: usize) -> Vec<Color> {
        let mut out = Vec::with_capacity(width * height);
        for py in 0..height {
            let row = (py * self.rows / height.max(1)).min(self.rows.saturating_sub(1));
            for px in 0..width {
                let col = (px * self.cols / width.max(1)).min(self.cols.saturating_sub(1));
                out.push(self.pixels[row * self.cols + col]);
            }
        }
        out
    }
}

/// One thing to draw. Coordinates are pixels from the top left corner.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A filled rectangle.
    Rect {
        /// The left edge.
        x: f64,
        /// The top edge.
        y: f64,
        /// The width.
        width: f64,
        /// The height.
        height: f64,
        /// The colour inside.
        fill: Color,
    },
    /// The outline of a rectangle.
    Frame {
        /// The left edge.
        x: f64,
        /// The top edge.
        y: f64,
        /// The width.
        width: f64,
        /// The height.
        height: f64,
        /// The colour of the outline.
        stroke: Color,
        /// The width of the outline.
        line_width: f64,
    },
    /// A straight line.
    Line {
        /// One end.
        from: (f64, f64),
        /// The other end.
        to: (f64, f64),
        /// The colour.
        stroke: Color,
        /// The width.
        line_width: f64,
        /// When given, the line is dashed with dashes and gaps of this many pixels.
        dash: Option<f64>,
    },
    /// A circle, filled and/or outlined.
    Circle {
        /// The centre.
        center: (f64, f64),
        /// The radius.
        radius: f64,
        /// The colour inside, if filled.
        fill: Option<Color>,
        /// The colour and width of the outline, if outlined.
        stroke: Option<(Color, f64)>,
    },
    /// A filled polygon.
    Polygon {
        /// The corners, in order.
        points: Vec<(f64, f64)>,
        /// The colour inside.
        fill: Color,
    },
    /// One line of text.
    Text {
        /// The anchor point; the text is centred vertically on it.
        at: (f64, f64),
        /// The text.
        text: String,
        /// The font size in pixels.
        size: f64,
        /// The colour.
        color: Color,
        /// Where the anchor point sits along the text.
        anchor: Anchor,
        /// Turned a quarter turn anticlockwise about `at` (reading upwards), as a y-axis label.
        vertical: bool,
    },
    /// A raster stretched over a rectangle (whole pixels: the charts place it on integers).
    Image {
        /// The left edge.
        x: u32,
        /// The top edge.
        y: u32,
        /// The width.
        width: u32,
        /// The height.
        height: u32,
        /// The colours, stretched over the rectangle without smoothing.
        raster: Raster,
    },
}

/// A whole picture.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// The width in pixels.
    pub width: u32,
    /// The height in pixels.
    pub height: u32,
    /// What the picture shows, in words (the SVG `<title>`).
    pub title: String,
    /// The colour under every shape.
    pub background: Color,
    /// The shapes, drawn in order (later ones over earlier ones).
    pub shapes: Vec<Shape>,
}

impl Scene {
    /// An empty white picture of `width × height` pixels.
    pub fn new(width: u32, height: u32, title: impl Into<String>) -> Scene {
        Scene { width, height, title: title.into(), background: Color::WHITE, shapes: Vec::new() }
    }

    /// Adds `shape` over the shapes already there.
    pub fn push(&mut self, shape: Shape) {
        self.shapes.push(shape);
    }

    /// Text in the default colour.
    pub fn text(&mut self, at: (f64, f64), text: impl Into<String>, size: f64, anchor: Anchor) {
        self.push(Shape::Text { at, text: text.into(), size, color: INK, anchor, vertical: false });
    }
}

/// The colour of text and axes.
pub const INK: Color = Color::rgb(0x22, 0x22, 0x22);

/// Text sizes the charts use (pixels; the PNG font is drawn at `png::font_scale` of these).
pub const TITLE_SIZE: f64 = 18.0;
pub const LABEL_SIZE: f64 = 16.0;
pub const TICK_SIZE: f64 = 14.0;

/// How wide `text` is at `size`, at most, in either backend (the bitmap font is the wider).
pub fn text_width(text: &str, size: f64) -> f64 {
    (text.chars().count() * 8 * png::font_scale(size) as usize) as f64
}

/// Round tick values covering `0 ..= max`: multiples of 1, 2 or 5 × 10^k, at most about
/// `max_count` of them.
pub fn nice_ticks(max: u64, max_count: u64) -> Vec<u64> {
    let max_count = max_count.max(1);
    let mut step = 1u64;
    'search: loop {
        for factor in [1, 2, 5] {
            let candidate = step.saturating_mul(factor);
            if max / candidate < max_count {
                step = candidate;
                break 'search;
            }
        }
        step = step.saturating_mul(10);
    }
    (0..=max / step).map(|k| k * step).collect()
}

/// The pieces of a dashed line: dashes of `dash` pixels separated by gaps of the same length.
pub fn dash_segments(from: (f64, f64), to: (f64, f64), dash: f64) -> Vec<((f64, f64), (f64, f64))> {
    let length = ((to.0 - from.0).powi(2) + (to.1 - from.1).powi(2)).sqrt();
    if length == 0.0 || dash <= 0.0 {
        return vec![(from, to)];
    }
    let point = |distance: f64| {
        let t = (distance / length).min(1.0);
        (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t)
    };
    let mut pieces = Vec::new();
    let mut start = 0.0;
    while start < length {
        pieces.push((point(start), point(start + dash)));
        start += 2.0 * dash;
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_few() {
        assert_eq!(nice_ticks(10, 6), [0, 2, 4, 6, 8, 10]);
        assert_eq!(nice_ticks(500, 6), [0, 100, 200, 300, 400, 500]);
        assert_eq!(nice_ticks(3, 10), [0, 1, 2, 3]);
        assert_eq!(nice_ticks(0, 5), [0]);
        assert!(nice_ticks(u64::MAX, 8).len() <= 9);
    }

    #[test]
    fn resampling_keeps_every_cell_when_enlarging() {
        let raster = Raster { cols: 2, rows: 1, pixels: vec![Color::BLACK, Color::WHITE] };
        assert_eq!(raster.resample(4, 2), [Color::BLACK, Color::BLACK, Color::WHITE, Color::WHITE].repeat(2));
    }

    #[test]
    fn dashes_cover_half_the_line() {
        let pieces = dash_segments((0.0, 0.0), (10.0, 0.0), 2.5);
        assert_eq!(pieces, [((0.0, 0.0), (2.5, 0.0)), ((5.0, 0.0), (7.5, 0.0))]);
    }
}
