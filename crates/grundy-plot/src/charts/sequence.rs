//! The nim-sequence G(n) against n: one marker per heap while they fit apart, else a density
//! picture (per pixel column, the share of its heaps with each value, shaded), so a long
//! sequence reads as bands rather than a smear. A proved period is marked: the preperiod
//! shaded grey, the first period blue, period boundaries dashed.

use super::{Area, Swatch, axes, left_margin, legend_row, title};
use crate::render::{Color, Raster, Scene, Shape, TICK_SIZE, nice_ticks, text_width};
use grundy::control::Control;
use grundy::heap::period::find_period;
use grundy::heap::{CompactSequence, HeapGame};

/// A proved period of a nim-sequence: `G(n + period) = G(n)` for every `n >= preperiod`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// The first heap size from which the sequence repeats (the preperiod's length).
    pub preperiod: usize,
    /// The length of the repeating part.
    pub period: usize,
}

/// The period of `heap_game` that `values` = G(0), …, G(N) prove by the theorem the game names
/// ([`HeapGame::periodicity`]), to mark on its picture; `None` when they prove none, or only an
/// arithmetic period (Nim's G(n) = n), which has nothing to shade.
///
/// ```
/// use grundy::control::Control;
/// use grundy::heap::{AsHeapGame, CompactSequence};
/// use grundy::registry::parse_game;
/// use grundy_plot::{Period, proved_period};
///
/// // sub:2,5 is 0 0 1 1 0 2 1, then the same again: period 7 from n = 0.
/// let game = parse_game("sub:2,5").unwrap();
/// let heap_game = game.heap_game().unwrap();
/// let mut values = CompactSequence::new();
/// heap_game.extend_sequence(&mut values, 50, &Control::default()).unwrap();
/// assert_eq!(proved_period(&*heap_game, &values.to_vec()), Some(Period { preperiod: 0, period: 7 }));
/// ```
pub fn proved_period(heap_game: &dyn HeapGame, values: &[u32]) -> Option<Period> {
    let last = values.len().checked_sub(1)?;
    // The search reads (and may extend) its own copy; the values to `last` are all there.
    let mut prefix = CompactSequence::from_values(values);
    let report = find_period(heap_game, &mut prefix, last as u64, &Control::default(), &mut |_| {}).ok()?;
    let (period, _proof) = report.proved?;
    (period.saltus == 0).then_some(Period { preperiod: period.preperiod as usize, period: period.period as usize })
}

const WIDTH: u32 = 1000;
const HEIGHT: u32 = 600;
const MARKER: Color = Color::rgb(0x1f, 0x4e, 0x99);
const EMPTY: Color = Color::WHITE;
const PREPERIOD: Color = Color::rgb(0xe6, 0xe6, 0xe6);
const FIRST_PERIOD: Color = Color::rgb(0xd2, 0xe4, 0xf7);
const BOUNDARY: Color = Color::rgb(0x6a, 0x8f, 0xc0);

/// The picture of `values` = G(0), …, G(N) of the game `spec`, with `period` marked
/// ([`crate::nim_sequence_scene`] finds it).
pub fn sequence_scene(spec: &str, values: &[u32], period: Option<Period>) -> Scene {
    let last = values.len().saturating_sub(1);
    let max_value = values.iter().copied().max().unwrap_or(0);
    let mut scene = Scene::new(WIDTH, HEIGHT, format!("Nim-sequence of {spec}, G(n) for n = 0..{last}"));
    title(&mut scene, &format!("Nim-sequence of {spec}: G(n) for n = 0..{last}"));

    let y_labels: Vec<(u64, String)> =
        nice_ticks(u64::from(max_value), 8).into_iter().map(|value| (value, value.to_string())).collect();
    let left = left_margin(&y_labels.iter().map(|(_, label)| (0.0, label.clone())).collect::<Vec<_>>()).round();
    let right_margin = (text_width(&last.to_string(), TICK_SIZE) / 2.0 + 12.0).max(30.0);
    let right = (f64::from(WIDTH) - right_margin).round();
    let markers = right - left >= 3.0 * values.len() as f64;
    let legend_bottom = legend_row(&mut scene, left, 62.0, right, &legend(markers, period));
    let top = (legend_bottom + 26.0).round();
    let area = Area { x: left, y: top, width: right - left, height: f64::from(HEIGHT) - 72.0 - top };
    let count = values.len().max(1);
    let slot_width = area.width / count as f64;
    let slot_height = area.height / (f64::from(max_value) + 1.0);
    let x_of = |n: usize| area.x + (n as f64 + 0.5) * slot_width;
    let y_of = |value: u32| area.bottom() - (f64::from(value) + 0.5) * slot_height;

    // Behind the data: the preperiod and the first period, and the period boundaries.
    let band = |n: usize| match period {
        Some(Period { preperiod, .. }) if n < preperiod => PREPERIOD,
        Some(Period { preperiod, period }) if n < preperiod + period => FIRST_PERIOD,
        _ => EMPTY,
    };
    if let Some(Period { preperiod, period }) = period {
        let edge = |n: usize| area.x + n.min(count) as f64 * slot_width;
        if preperiod > 0 {
            scene.push(Shape::Rect {
                x: area.x,
                y: area.y,
                width: edge(preperiod) - area.x,
                height: area.height,
                fill: PREPERIOD,
            });
        }
        let (start, end) = (edge(preperiod), edge(preperiod + period));
        scene.push(Shape::Rect { x: start, y: area.y, width: end - start, height: area.height, fill: FIRST_PERIOD });
        // Every boundary while they stay apart, else only the first period's two.
        let step = if period as f64 * slot_width >= 24.0 { period } else { usize::MAX };
        let mut boundary = preperiod;
        while boundary <= count {
            scene.push(Shape::Line {
                from: (edge(boundary), area.y),
                to: (edge(boundary), area.bottom()),
                stroke: BOUNDARY,
                line_width: 1.0,
                dash: Some(4.0),
            });
            boundary = match boundary.checked_add(if boundary == preperiod { period } else { step }) {
                Some(next) => next,
                None => break,
            };
        }
    }

    if markers {
        for (value, _) in &y_labels {
            let y = y_of(*value as u32);
            scene.push(Shape::Line {
                from: (area.x, y),
                to: (area.right(), y),
                stroke: Color::rgb(0xdd, 0xdd, 0xdd),
                line_width: 1.0,
                dash: None,
            });
        }
        let radius = (slot_width * 0.4).min(slot_height * 0.4).clamp(1.2, 4.0);
        for (n, &value) in values.iter().enumerate() {
            scene.push(Shape::Circle { center: (x_of(n), y_of(value)), radius, fill: Some(MARKER), stroke: None });
        }
    } else {
        scene.push(density_image(values, max_value, area, band));
    }

    let x_ticks: Vec<(f64, String)> =
        nice_ticks(last as u64, 10).into_iter().map(|n| (x_of(n as usize), n.to_string())).collect();
    let y_ticks: Vec<(f64, String)> = y_labels.into_iter().map(|(value, label)| (y_of(value as u32), label)).collect();
    axes(&mut scene, area, &x_ticks, &y_ticks, "heap size n", "Grundy value G(n)");

    scene
}

fn legend(markers: bool, period: Option<Period>) -> Vec<(Swatch, String)> {
    let mut legend = vec![if markers {
        (Swatch::Disc(MARKER), "G(n)".to_owned())
    } else {
        (Swatch::Square(MARKER), "G(n), paler where fewer n in a pixel column".to_owned())
    }];
    match period {
        Some(Period { preperiod, period }) => {
            if preperiod > 0 {
                legend.push((Swatch::Square(PREPERIOD), format!("preperiod n < {preperiod}")));
            }
            legend.push((Swatch::Square(FIRST_PERIOD), format!("period {period} from n = {preperiod} (proved)")));
        }
        None => legend.push((Swatch::Square(EMPTY), "no period proved up to this n".to_owned())),
    }
    legend
}

/// The density picture: one raster column per pixel column (or per heap when there are fewer
/// heaps than pixels), each value a short band whose darkness is the share of the column's heaps
/// having it; empty pixels take the colour of the period band behind them.
fn density_image(values: &[u32], max_value: u32, area: Area, band: impl Fn(usize) -> Color) -> Shape {
    let (width, height) = (area.width as usize, area.height as usize);
    let cols = values.len().min(width).max(1);
    let rows = height;
    let slot = rows as f64 / (f64::from(max_value) + 1.0);
    let half = (slot * 0.3).clamp(0.5, 3.0);
    let row_range = |value: u32| {
        let centre = (f64::from(max_value - value) + 0.5) * slot;
        let top = ((centre - half).floor().max(0.0) as usize).min(rows - 1);
        let bottom = ((centre + half).ceil() as usize).clamp(top + 1, rows);
        top..bottom
    };
    let mut pixels = vec![EMPTY; cols * rows];
    let mut counts = vec![0u32; rows];
    for col in 0..cols {
        let (first, end) = (col * values.len() / cols, (col + 1) * values.len() / cols);
        counts.iter_mut().for_each(|count| *count = 0);
        for &value in &values[first..end] {
            for row in row_range(value) {
                counts[row] += 1;
            }
        }
        let background = band(first);
        let heaps = (end - first).max(1) as f64;
        for (row, &count) in counts.iter().enumerate() {
            pixels[row * cols + col] = if count == 0 {
                background
            } else {
                // Even one heap in a column stays clearly visible.
                background.mix(MARKER, 0.3 + 0.7 * (f64::from(count) / heaps).min(1.0))
            };
        }
    }
    Shape::Image {
        x: area.x as u32,
        y: area.y as u32,
        width: width as u32,
        height: height as u32,
        raster: Raster { cols, rows, pixels },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn density_with_more_values_than_pixel_rows() {
        // G(n) = n (nim) to 5000 on 20 rows: many values share a row, each column is one
        // diagonal step, and the whole diagonal is inked.
        let area = Area { x: 0.0, y: 0.0, width: 10.0, height: 20.0 };
        let values: Vec<u32> = (0..=5000).collect();
        let Shape::Image { raster, .. } = density_image(&values, 5000, area, |_| EMPTY) else { panic!() };
        for col in 0..10 {
            let inked: Vec<usize> = (0..20).filter(|row| raster.pixels[row * 10 + col] != EMPTY).collect();
            assert!(!inked.is_empty(), "column {col}");
            // Larger n are higher up: column c within a row of its band of rows 18 − 2c, 19 − 2c.
            assert!(inked.iter().all(|&row| row + 3 >= 20 - 2 * col && row < 20 - 2 * col + 1), "{col}: {inked:?}");
        }
    }

    #[test]
    fn density_rows_count_values() {
        let area = Area { x: 0.0, y: 0.0, width: 10.0, height: 20.0 };
        let values: Vec<u32> = (0..100).map(|n| n % 2).collect();
        let Shape::Image { raster, .. } = density_image(&values, 1, area, |_| EMPTY) else { panic!() };
        assert_eq!((raster.cols, raster.rows), (10, 20));
        // Each column holds five 0s and five 1s: half the heaps, the same shade in both bands.
        let shade = raster.pixels[15 * 10];
        assert_eq!(raster.pixels[5 * 10], shade);
        assert_eq!(shade, EMPTY.mix(MARKER, 0.3 + 0.7 * 0.5));
        assert_eq!(raster.pixels[0], EMPTY);
    }
}
