//! The table G(x, y) of a two-heap game as a colour map: x to the right, y upwards, values
//! from dark to light, P-positions (value 0) in red so that their lines (for Wythoff's game
//! the Beatty lines y ≈ φx and y ≈ x/φ) stand out.

use super::{Area, Swatch, axes, draw_swatch, title, viridis};
use crate::render::{Anchor, Color, INK, Raster, Scene, Shape, TICK_SIZE, nice_ticks};
use crate::{PlotError, ensure_plottable};

/// The side of the map in pixels that tables are fitted to.
const MAP_SIDE: usize = 768;
/// The colour of P-positions.
pub const P_COLOR: Color = Color::rgb(0xe3, 0x1a, 0x1c);
/// Room left of the map for tick labels of up to five digits and the axis label, and right of
/// it for the legend: a picture is `LEFT_MARGIN + map + RIGHT_MARGIN` wide and `80 + map + 70`
/// high.
const LEFT_MARGIN: f64 = 130.0;
const RIGHT_MARGIN: f64 = 250.0;

/// How a table of `side` × `side'` cells is fitted into the map: `block` × `block` cells per
/// raster cell (1 unless the table is larger than the map), each raster cell `cell` pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fit {
    block: usize,
    cell: usize,
}

/// The fit for a table whose larger side is `side` cells.
fn fit(side: usize) -> Fit {
    let block = side.div_ceil(MAP_SIDE).max(1);
    let cells = side.div_ceil(block).max(1);
    Fit { block, cell: (MAP_SIDE / cells).max(1) }
}

/// The picture of `values[x][y]` = G(x, y) of the game `spec`.
///
/// # Errors
/// An empty or ragged table.
pub fn grid_scene(spec: &str, values: &[Vec<u64>]) -> Result<Scene, PlotError> {
    let x_count = values.len();
    let y_count = values.first().map_or(0, Vec::len);
    ensure_plottable!(x_count > 0 && y_count > 0, "`{spec}` gave an empty table: nothing to plot");
    ensure_plottable!(
        values.iter().all(|row| row.len() == y_count),
        "`{spec}` gave a table whose rows differ in length"
    );
    let max_value = values.iter().flatten().copied().max().unwrap_or(0);
    let Fit { block, cell } = fit(x_count.max(y_count));
    let (cols, rows) = (x_count.div_ceil(block), y_count.div_ceil(block));
    let (map_width, map_height) = (cols * cell, rows * cell);
    let width = (LEFT_MARGIN + map_width as f64 + RIGHT_MARGIN) as u32;
    let height = (80 + map_height + 70) as u32;
    let mut scene = Scene::new(width, height, format!("G(x, y) of {spec} for 0 <= x < {x_count}, 0 <= y < {y_count}"));
    title(&mut scene, &format!("G(x, y) of {spec}, 0 <= x < {x_count}, 0 <= y < {y_count}"));

    let area = Area { x: LEFT_MARGIN, y: 80.0, width: map_width as f64, height: map_height as f64 };
    let colour = |value: f64| if value == 0.0 { P_COLOR } else { viridis(value / max_value.max(1) as f64) };

    // Raster row 0 is the top: the largest y.
    let mut pixels = Vec::with_capacity(cols * rows);
    for raster_row in 0..rows {
        let y_block = rows - 1 - raster_row;
        let ys = y_block * block..((y_block + 1) * block).min(y_count);
        for x_block in 0..cols {
            let xs = x_block * block..((x_block + 1) * block).min(x_count);
            let cells = xs.flat_map(|x| values[x][ys.clone()].iter().copied());
            // A block with any P-position is drawn as one, so no P-line is lost to averaging.
            let (mut sum, mut count, mut has_zero) = (0.0, 0.0, false);
            for value in cells {
                has_zero |= value == 0;
                sum += value as f64;
                count += 1.0;
            }
            pixels.push(if has_zero { P_COLOR } else { colour(sum / count) });
        }
    }
    scene.push(Shape::Image {
        x: area.x as u32,
        y: area.y as u32,
        width: area.width as u32,
        height: area.height as u32,
        raster: Raster { cols, rows, pixels },
    });

    // Values written in the cells when they are large enough to read.
    if block == 1 && cell >= 28 {
        for (x, column) in values.iter().enumerate() {
            for (y, &value) in column.iter().enumerate() {
                let fill = colour(value as f64);
                let luminance = 0.299 * f64::from(fill.r) + 0.587 * f64::from(fill.g) + 0.114 * f64::from(fill.b);
                let ink = if luminance > 140.0 { Color::BLACK } else { Color::WHITE };
                let at = (area.x + (x as f64 + 0.5) * cell as f64, area.bottom() - (y as f64 + 0.5) * cell as f64);
                scene.push(Shape::Text {
                    at,
                    text: value.to_string(),
                    size: TICK_SIZE,
                    color: ink,
                    anchor: Anchor::Middle,
                    vertical: false,
                });
            }
        }
    }

    let position = |index: usize| (index as f64 + 0.5) / block as f64 * cell as f64;
    let x_ticks: Vec<(f64, String)> =
        nice_ticks(x_count as u64 - 1, 8).into_iter().map(|x| (area.x + position(x as usize), x.to_string())).collect();
    let y_ticks: Vec<(f64, String)> = nice_ticks(y_count as u64 - 1, 8)
        .into_iter()
        .map(|y| (area.bottom() - position(y as usize), y.to_string()))
        .collect();
    axes(&mut scene, area, &x_ticks, &y_ticks, "x (first heap)", "y (second heap)");

    // The legend on the right: the P swatch, then the colour bar of the other values.
    let legend_x = area.right() + 24.0;
    draw_swatch(&mut scene, (legend_x + 7.0, area.y + 8.0), Swatch::Square(P_COLOR));
    scene.text((legend_x + 20.0, area.y + 8.0), "P-position", TICK_SIZE, Anchor::Start);
    scene.text((legend_x + 20.0, area.y + 26.0), "(G = 0)", TICK_SIZE, Anchor::Start);
    let mut bar_top = area.y + 60.0;
    if block > 1 {
        scene.text((legend_x, area.y + 48.0), "each pixel:", TICK_SIZE, Anchor::Start);
        scene.text((legend_x, area.y + 66.0), format!("{block}x{block} cells,"), TICK_SIZE, Anchor::Start);
        scene.text((legend_x, area.y + 84.0), "red if any P", TICK_SIZE, Anchor::Start);
        bar_top += 54.0;
    }
    if max_value >= 1 {
        scene.text((legend_x, bar_top), "G(x, y)", TICK_SIZE, Anchor::Start);
        let bar_top = bar_top + 18.0;
        let bar_height = (area.bottom() - bar_top).clamp(40.0, 300.0).floor();
        let bar_rows = bar_height as usize;
        let bar: Vec<Color> = (0..bar_rows)
            .map(|row| {
                let value = 1.0 + (max_value - 1) as f64 * (1.0 - row as f64 / (bar_rows - 1).max(1) as f64);
                colour(value)
            })
            .collect();
        let (bar_x, bar_y) = (legend_x.round(), bar_top.round());
        scene.push(Shape::Image {
            x: bar_x as u32,
            y: bar_y as u32,
            width: 20,
            height: bar_rows as u32,
            raster: Raster { cols: 1, rows: bar_rows, pixels: bar },
        });
        scene.push(Shape::Frame { x: bar_x, y: bar_y, width: 20.0, height: bar_height, stroke: INK, line_width: 1.0 });
        let mut labels = nice_ticks(max_value, 6);
        labels.retain(|&value| value >= 1);
        if labels.first() != Some(&1) {
            labels.insert(0, 1);
        }
        for value in labels {
            let fraction = if max_value > 1 { (value - 1) as f64 / (max_value - 1) as f64 } else { 0.0 };
            let y = bar_y + (1.0 - fraction) * (bar_height - 1.0) + 0.5;
            scene.push(Shape::Line {
                from: (bar_x + 20.0, y),
                to: (bar_x + 25.0, y),
                stroke: INK,
                line_width: 1.0,
                dash: None,
            });
            scene.text((bar_x + 30.0, y), value.to_string(), TICK_SIZE, Anchor::Start);
        }
    }
    Ok(scene)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_fit_the_map() {
        assert_eq!(fit(256), Fit { block: 1, cell: 3 });
        assert_eq!(fit(10), Fit { block: 1, cell: 76 });
        assert_eq!(fit(768), Fit { block: 1, cell: 1 });
        assert_eq!(fit(2000), Fit { block: 3, cell: 1 });
    }

    #[test]
    fn p_positions_survive_downsampling() {
        // 1000 × 1000 with a single P-position far from the origin.
        let mut values = vec![vec![5u64; 1000]; 1000];
        values[999][998] = 0;
        let scene = grid_scene("test", &values).unwrap();
        assert_eq!((scene.width, scene.height), (130 + 500 + 250, 80 + 500 + 70));
        let Some(Shape::Image { raster, .. }) = scene.shapes.iter().find(|shape| matches!(shape, Shape::Image { .. }))
        else {
            panic!("no map")
        };
        assert_eq!((raster.cols, raster.rows), (500, 500));
        assert_eq!(raster.pixels.iter().filter(|&&pixel| pixel == P_COLOR).count(), 1);
        // x = 999 is the last column, y = 998 the top row.
        assert_eq!(raster.pixels[499], P_COLOR);
    }

    #[test]
    fn ragged_and_empty_tables_are_refused() {
        assert!(grid_scene("t", &[]).unwrap_err().to_string().contains("nothing to plot"));
        assert!(grid_scene("t", &[vec![0, 1], vec![1]]).is_err());
    }
}
