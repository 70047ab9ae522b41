//! A [`Scene`] as a PNG image, drawn by a small anti-aliased rasterizer. Text uses the
//! public-domain 8×8 bitmap font of the `font8x8` crate, scaled by whole pixels: nothing is
//! read from the machine, so the same picture comes out everywhere.

use super::{Anchor, Color, Scene, Shape};
use crate::PlotError;
use font8x8::UnicodeFonts;

/// The whole-pixel scale at which the 8×8 font stands for a text of `size` pixels.
pub(crate) fn font_scale(size: f64) -> u32 {
    ((size / 8.0).round() as u32).max(1)
}

/// The PNG file for `scene`.
pub fn render(scene: &Scene) -> Result<Vec<u8>, PlotError> {
    let mut canvas = Canvas::new(scene.width, scene.height, scene.background);
    for shape in &scene.shapes {
        canvas.draw(shape);
    }
    encode(scene.width, scene.height, &canvas.pixels)
}

/// An RGB PNG of `width × height` pixels, row-major.
pub(crate) fn encode(width: u32, height: u32, pixels: &[Color]) -> Result<Vec<u8>, PlotError> {
    if pixels.len() != width as usize * height as usize {
        return Err(PlotError::ImageSize { width, height, pixels: pixels.len() });
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    let data: Vec<u8> = pixels.iter().flat_map(|color| [color.r, color.g, color.b]).collect();
    writer.write_image_data(&data)?;
    writer.finish()?;
    Ok(bytes)
}

struct Canvas {
    width: u32,
    height: u32,
    pixels: Vec<Color>,
}

impl Canvas {
    fn new(width: u32, height: u32, background: Color) -> Canvas {
        Canvas { width, height, pixels: vec![background; width as usize * height as usize] }
    }

    /// Paints `color` over pixel (x, y) with opacity `coverage`.
    fn blend(&mut self, x: i64, y: i64, color: Color, coverage: f64) {
        if coverage <= 0.0 || x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return;
        }
        let index = y as usize * self.width as usize + x as usize;
        self.pixels[index] = self.pixels[index].mix(color, coverage);
    }

    /// The pixel rows and columns a box touches, clipped to the canvas.
    fn clip(&self, left: f64, top: f64, right: f64, bottom: f64) -> (i64, i64, i64, i64) {
        let x0 = (left.floor() as i64).max(0);
        let y0 = (top.floor() as i64).max(0);
        let x1 = (right.ceil() as i64).min(i64::from(self.width));
        let y1 = (bottom.ceil() as i64).min(i64::from(self.height));
        (x0, y0, x1, y1)
    }

    fn draw(&mut self, shape: &Shape) {
        match shape {
            Shape::Rect { x, y, width, height, fill } => self.fill_rect(*x, *y, *width, *height, *fill),
            Shape::Frame { x, y, width, height, stroke, line_width } => {
                let (x1, y1) = (x + width, y + height);
                for (from, to) in
                    [((*x, *y), (x1, *y)), ((x1, *y), (x1, y1)), ((x1, y1), (*x, y1)), ((*x, y1), (*x, *y))]
                {
                    self.line(from, to, *stroke, *line_width);
                }
            }
            Shape::Line { from, to, stroke, line_width, dash } => match dash {
                Some(dash) => {
                    for (from, to) in super::dash_segments(*from, *to, *dash) {
                        self.line(from, to, *stroke, *line_width);
                    }
                }
                None => self.line(*from, *to, *stroke, *line_width),
            },
            Shape::Circle { center, radius, fill, stroke } => {
                if let Some(fill) = fill {
                    self.circle(*center, *radius, None, *fill);
                }
                if let Some((color, width)) = stroke {
                    self.circle(*center, radius + width / 2.0, Some(radius - width / 2.0), *color);
                }
            }
            Shape::Polygon { points, fill } => self.polygon(points, *fill),
            Shape::Text { at, text, size, color, anchor, vertical } => {
                self.text(*at, text, *size, *color, *anchor, *vertical);
            }
            Shape::Image { x, y, width, height, raster } => {
                let pixels = raster.resample(*width as usize, *height as usize);
                for row in 0..*height {
                    for col in 0..*width {
                        let color = pixels[(row * width + col) as usize];
                        self.blend(i64::from(x + col), i64::from(y + row), color, 1.0);
                    }
                }
            }
        }
    }

    /// A rectangle, with edge pixels covered in proportion to their area inside it.
    fn fill_rect(&mut self, x: f64, y: f64, width: f64, height: f64, fill: Color) {
        let (x0, y0, x1, y1) = self.clip(x, y, x + width, y + height);
        for py in y0..y1 {
            let cover_y = ((py + 1) as f64).min(y + height) - (py as f64).max(y);
            for px in x0..x1 {
                let cover_x = ((px + 1) as f64).min(x + width) - (px as f64).max(x);
                self.blend(px, py, fill, cover_x.max(0.0) * cover_y.max(0.0));
            }
        }
    }

    /// A line with round ends: each pixel covered by how far its centre lies inside.
    fn line(&mut self, from: (f64, f64), to: (f64, f64), color: Color, width: f64) {
        let half = width / 2.0;
        let (x0, y0, x1, y1) = self.clip(
            from.0.min(to.0) - half - 1.0,
            from.1.min(to.1) - half - 1.0,
            from.0.max(to.0) + half + 1.0,
            from.1.max(to.1) + half + 1.0,
        );
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let length_squared = dx * dx + dy * dy;
        // Thin lines are drawn at least one pixel wide, lighter, so they never vanish.
        let (half, strength) = if width < 1.0 { (0.5, width) } else { (half, 1.0) };
        let reach = half + 1.0;
        for py in y0..y1 {
            let cy = py as f64 + 0.5;
            // Only the pixels of this row near the line: where the segment passes within
            // `reach` rows of it, widened by `reach` (a long diagonal touches few per row).
            let (mut row_left, mut row_right) = (x0, x1);
            if dy.abs() > 1e-9 {
                let t_a = ((cy - reach - from.1) / dy).clamp(0.0, 1.0);
                let t_b = ((cy + reach - from.1) / dy).clamp(0.0, 1.0);
                let (xa, xb) = (from.0 + t_a * dx, from.0 + t_b * dx);
                row_left = row_left.max((xa.min(xb) - reach).floor() as i64);
                row_right = row_right.min((xa.max(xb) + reach).ceil() as i64 + 1);
            }
            for px in row_left..row_right {
                let cx = px as f64 + 0.5;
                let t = if length_squared == 0.0 {
                    0.0
                } else {
                    (((cx - from.0) * dx + (cy - from.1) * dy) / length_squared).clamp(0.0, 1.0)
                };
                let distance = ((cx - from.0 - t * dx).powi(2) + (cy - from.1 - t * dy).powi(2)).sqrt();
                self.blend(px, py, color, (half + 0.5 - distance).clamp(0.0, 1.0) * strength);
            }
        }
    }

    /// A disc of `outer` radius, less the disc of `inner` radius when given (a ring).
    fn circle(&mut self, center: (f64, f64), outer: f64, inner: Option<f64>, color: Color) {
        let (x0, y0, x1, y1) =
            self.clip(center.0 - outer - 1.0, center.1 - outer - 1.0, center.0 + outer + 1.0, center.1 + outer + 1.0);
        for py in y0..y1 {
            for px in x0..x1 {
                let distance = ((px as f64 + 0.5 - center.0).powi(2) + (py as f64 + 0.5 - center.1).powi(2)).sqrt();
                let mut coverage = (outer + 0.5 - distance).clamp(0.0, 1.0);
                if let Some(inner) = inner {
                    coverage = coverage.min((distance - inner + 0.5).clamp(0.0, 1.0));
                }
                self.blend(px, py, color, coverage);
            }
        }
    }

    /// A polygon (even–odd rule), each pixel sampled at 4 × 4 points.
    fn polygon(&mut self, points: &[(f64, f64)], color: Color) {
        if points.len() < 3 {
            return;
        }
        let left = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let right = points.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let top = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let bottom = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        let (x0, y0, x1, y1) = self.clip(left, top, right, bottom);
        let inside = |x: f64, y: f64| {
            let mut inside = false;
            let mut previous = points[points.len() - 1];
            for &point in points {
                if (point.1 > y) != (previous.1 > y)
                    && x < (previous.0 - point.0) * (y - point.1) / (previous.1 - point.1) + point.0
                {
                    inside = !inside;
                }
                previous = point;
            }
            inside
        };
        for py in y0..y1 {
            for px in x0..x1 {
                let mut hits = 0;
                for sy in 0..4 {
                    for sx in 0..4 {
                        if inside(px as f64 + (sx as f64 + 0.5) / 4.0, py as f64 + (sy as f64 + 0.5) / 4.0) {
                            hits += 1;
                        }
                    }
                }
                self.blend(px, py, color, f64::from(hits) / 16.0);
            }
        }
    }

    fn text(&mut self, at: (f64, f64), text: &str, size: f64, color: Color, anchor: Anchor, vertical: bool) {
        let scale = i64::from(font_scale(size));
        let glyphs: Vec<[u8; 8]> = text.chars().map(glyph).collect();
        let length = glyphs.len() as i64 * 8 * scale;
        let start = match anchor {
            Anchor::Start => 0,
            Anchor::Middle => -length / 2,
            Anchor::End => -length,
        };
        let (ax, ay) = (at.0.round() as i64, at.1.round() as i64);
        let half_height = 4 * scale;
        for (index, rows) in glyphs.iter().enumerate() {
            for (row, bits) in rows.iter().enumerate() {
                for column in 0..8 {
                    if bits & (1 << column) == 0 {
                        continue;
                    }
                    // Along the text: `along` pixels from the anchor; across: from the top.
                    let along = start + (index as i64 * 8 + column) * scale;
                    let across = row as i64 * scale - half_height;
                    for dy in 0..scale {
                        for dx in 0..scale {
                            let (x, y) = if vertical {
                                // A quarter turn anticlockwise: the text reads upwards.
                                (ax + across + dy, ay - along - dx)
                            } else {
                                (ax + along + dx, ay + across + dy)
                            };
                            self.blend(x, y, color, 1.0);
                        }
                    }
                }
            }
        }
    }
}

/// The bitmap of one character (rows top to bottom, bit 0 the leftmost pixel); `?` for a
/// character the font lacks.
fn glyph(c: char) -> [u8; 8] {
    font8x8::BASIC_FONTS
        .get(c)
        .or_else(|| font8x8::LATIN_FONTS.get(c))
        .or_else(|| font8x8::GREEK_FONTS.get(c))
        .unwrap_or_else(|| font8x8::BASIC_FONTS.get('?').expect("the basic font has `?`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buffer).unwrap();
        buffer.truncate(info.buffer_size());
        (info.width, info.height, buffer)
    }

    #[test]
    fn shapes_land_where_placed() {
        let mut scene = Scene::new(20, 10, "test");
        scene.push(Shape::Rect { x: 2.0, y: 2.0, width: 3.0, height: 3.0, fill: Color::BLACK });
        let (width, height, data) = decode(&render(&scene).unwrap());
        assert_eq!((width, height), (20, 10));
        let pixel = |x: usize, y: usize| &data[(y * 20 + x) * 3..(y * 20 + x) * 3 + 3];
        assert_eq!(pixel(3, 3), [0, 0, 0]);
        assert_eq!(pixel(6, 3), [255, 255, 255]);
    }

    #[test]
    fn text_draws_ink_around_its_anchor() {
        let mut scene = Scene::new(40, 20, "test");
        scene.push(Shape::Text {
            at: (20.0, 10.0),
            text: "H".into(),
            size: 8.0,
            color: Color::BLACK,
            anchor: Anchor::Middle,
            vertical: false,
        });
        let (_, _, data) = decode(&render(&scene).unwrap());
        let dark: Vec<(usize, usize)> =
            (0..20 * 40).filter(|index| data[index * 3] == 0).map(|index| (index % 40, index / 40)).collect();
        assert!(!dark.is_empty());
        assert!(dark.iter().all(|&(x, y)| (16..24).contains(&x) && (6..14).contains(&y)), "{dark:?}");
    }

    #[test]
    fn lines_cover_exactly_the_pixels_near_them() {
        let lines =
            [((3.2, 4.1), (57.0, 33.3), 1.5), ((50.0, 2.0), (4.0, 38.0), 3.0), ((10.0, 20.0), (50.0, 20.5), 0.5)];
        for (from, to, width) in lines {
            let mut canvas = Canvas::new(60, 40, Color::WHITE);
            canvas.line(from, to, Color::BLACK, width);
            // Every pixel, by the coverage rule with no shortcut.
            let (half, strength) = if width < 1.0 { (0.5, width) } else { (width / 2.0, 1.0) };
            for py in 0..40 {
                for px in 0..60 {
                    let (cx, cy) = (px as f64 + 0.5, py as f64 + 0.5);
                    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
                    let t = (((cx - from.0) * dx + (cy - from.1) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
                    let distance = ((cx - from.0 - t * dx).powi(2) + (cy - from.1 - t * dy).powi(2)).sqrt();
                    let coverage = (half + 0.5 - distance).clamp(0.0, 1.0) * strength;
                    let expected = Color::WHITE.mix(Color::BLACK, coverage);
                    assert_eq!(canvas.pixels[py * 60 + px], expected, "({px}, {py}) of {from:?}-{to:?}");
                }
            }
        }
    }

    #[test]
    fn unknown_characters_fall_back() {
        assert_eq!(glyph('\u{1F600}'), glyph('?'));
        assert_ne!(glyph('é'), glyph('?'));
    }
}
