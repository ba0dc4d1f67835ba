//! Plots drawn like the papers' figures: median solve time against the number of
//! vertices, one line per algorithm (log time axis, since CPU and GPU times are
//! orders of magnitude apart), and the speed-ups over the oracle at the largest
//! size as bars. Each as SVG and PNG, with an embedded font.

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};

use super::plan::{Layout, LayoutNames};
use super::report::Row;
use sssp::{Error, Result};

static FONT: Once = Once::new();

fn register_embedded_font() {
    FONT.call_once(|| {
        // DejaVu Sans (Bitstream Vera license, host/assets/DejaVuSans.LICENSE).
        let font: &'static [u8] = include_bytes!("../../assets/DejaVuSans.ttf");
        let _ = register_font("sans-serif", FontStyle::Normal, font);
    });
}

fn plot_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Write {
        path: path.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    }
}

/// Draws the time and speed-up plots of one plan into `dir` as
/// `<plan>-time.{svg,png}` and `<plan>-speedup.{svg,png}`; returns the files.
pub fn draw(dir: &Path, plan: &str, layout: Layout, rows: &[Row]) -> Result<Vec<PathBuf>> {
    register_embedded_font();
    let legend = legend_width(rows);
    let time_size = (870 + legend, 560);
    let mut files = Vec::new();
    for ext in ["svg", "png"] {
        let time = dir.join(format!("{plan}-time.{ext}"));
        let speedup = dir.join(format!("{plan}-speedup.{ext}"));
        // Drawn into temporary files that end like the targets (the backend
        // takes the image format from the extension), renamed over them once
        // both are complete: a file is replaced whole or not at all.
        let temps = (temp_beside(&time, ext), temp_beside(&speedup, ext));
        let plots = Plots {
            paths: (&temps.0, &temps.1),
            time_size,
            plan,
            layout,
            rows,
            legend,
        };
        let drawn = if ext == "svg" {
            plots.draw(SVGBackend::new)
        } else {
            plots.draw(BitMapBackend::new)
        };
        let placed = drawn
            .and_then(|()| rename(&temps.0, &time))
            .and_then(|()| rename(&temps.1, &speedup));
        if placed.is_err() {
            // Best effort: what was not renamed goes.
            let _ = std::fs::remove_file(&temps.0);
            let _ = std::fs::remove_file(&temps.1);
        }
        placed?;
        files.extend([time, speedup]);
    }
    Ok(files)
}

/// A hidden temporary file beside `path` whose name ends in `.{ext}`.
fn temp_beside(path: &Path, ext: &str) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!(".{stem}.tmp-{}.{ext}", std::process::id()))
}

/// Renames the drawn `temp` over `target`.
fn rename(temp: &Path, target: &Path) -> Result<()> {
    std::fs::rename(temp, target).map_err(|source| Error::Write {
        path: target.to_path_buf(),
        source,
    })
}

fn algorithms(rows: &[Row]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for row in rows {
        if !names.contains(&row.algorithm.as_str()) {
            names.push(&row.algorithm);
        }
    }
    names
}

/// Pixels for the legend strip: a line sample and the longest name (about 8
/// pixels per character of the 13-pixel font).
fn legend_width(rows: &[Row]) -> u32 {
    let longest = algorithms(rows).iter().map(|n| n.len()).max().unwrap_or(0);
    40 + 8 * longest as u32
}

/// The two plots of one plan, to be drawn with one backend.
struct Plots<'a> {
    /// The time plot's file and the speed-up plot's.
    paths: (&'a Path, &'a Path),
    time_size: (u32, u32),
    plan: &'a str,
    layout: Layout,
    rows: &'a [Row],
    legend: u32,
}

impl<'a> Plots<'a> {
    /// Draws both plots with the backend that `backend` makes for a file.
    fn draw<DB: DrawingBackend + 'a>(
        &self,
        backend: impl Fn(&'a Path, (u32, u32)) -> DB,
    ) -> Result<()> {
        let (time, speedup) = self.paths;
        let time_area = backend(time, self.time_size).into_drawing_area();
        let (plan, rows) = (self.plan, self.rows);
        time_plot(time_area, time, plan, self.layout, rows, self.legend)?;
        let speedup_area = backend(speedup, (900, 560)).into_drawing_area();
        speedup_plot(speedup_area, speedup, plan, rows)
    }
}

fn time_plot<DB: DrawingBackend>(
    area: DrawingArea<DB, plotters::coord::Shift>,
    path: &Path,
    plan: &str,
    layout: Layout,
    rows: &[Row],
    legend: u32,
) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| plot_error(path, e);
    area.fill(&WHITE).map_err(|e| err(&e))?;
    let (unit, unit_name) = layout.size_unit();
    let x_max = rows
        .iter()
        .map(|r| r.n as f64 / unit as f64)
        .fold(0.0, f64::max)
        * 1.05;
    let y_min = rows
        .iter()
        .map(|r| r.median_ms)
        .fold(f64::INFINITY, f64::min)
        .max(1e-3)
        / 2.0;
    let y_max = rows
        .iter()
        .map(|r| r.median_ms)
        .fold(0.0, f64::max)
        .max(y_min * 4.0)
        * 2.0;
    // The legend gets its own strip right of the chart, so that it never
    // covers a line (the slow CPU lines start low on the left).
    let (chart_area, legend_area) =
        area.split_horizontally((area.dim_in_pixel().0 - legend) as i32);
    let mut chart = ChartBuilder::on(&chart_area)
        .caption(format!("{plan}: median solve time"), ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..x_max, (y_min..y_max).log_scale())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc(format!("vertices ({unit_name})"))
        .y_desc("time (ms, log scale)")
        .y_label_formatter(&|v| short_number(*v))
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| err(&e))?;
    for (k, name) in algorithms(rows).into_iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        let points: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.algorithm == name)
            .map(|r| (r.n as f64 / unit as f64, r.median_ms))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(|e| err(&e))?;
        let y = 60 + 20 * k as i32;
        legend_area
            .draw(&PathElement::new(
                vec![(4, y), (24, y)],
                color.stroke_width(2),
            ))
            .map_err(|e| err(&e))?;
        legend_area
            .draw(&Text::new(
                name.to_string(),
                (30, y - 7),
                ("sans-serif", 13).into_font(),
            ))
            .map_err(|e| err(&e))?;
        chart
            .draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 3, color.filled())),
            )
            .map_err(|e| err(&e))?;
    }
    area.present().map_err(|e| err(&e))
}

fn speedup_plot<DB: DrawingBackend>(
    area: DrawingArea<DB, plotters::coord::Shift>,
    path: &Path,
    plan: &str,
    rows: &[Row],
) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| plot_error(path, e);
    area.fill(&WHITE).map_err(|e| err(&e))?;
    let largest = rows.iter().map(|r| r.n).max().unwrap_or(0);
    let bars: Vec<(&str, f64)> = rows
        .iter()
        .filter(|r| r.n == largest)
        .map(|r| (r.algorithm.as_str(), r.oracle_ms / r.median_ms))
        .collect();
    let y_max = bars.iter().map(|b| b.1).fold(1.0, f64::max) * 1.15;
    let count = bars.len().max(1);
    let mut chart = ChartBuilder::on(&area)
        .caption(
            format!("{plan}: speed-up over CPU Dijkstra at n = {largest}"),
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(90)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..count as f64, 0.0..y_max)
        .map_err(|e| err(&e))?;
    let names: Vec<String> = bars.iter().map(|b| b.0.to_string()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(count * 2 + 1)
        .x_label_formatter(&|x| {
            let k = x.floor() as usize;
            if (x - k as f64 - 0.5).abs() < 0.26 {
                names.get(k).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_label_style(
            ("sans-serif", 12)
                .into_font()
                .transform(FontTransform::Rotate90),
        )
        .y_desc("speed-up (×)")
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(bars.iter().enumerate().map(|(k, &(_, s))| {
            Rectangle::new(
                [(k as f64 + 0.15, 0.0), (k as f64 + 0.85, s)],
                Palette99::pick(k).filled(),
            )
        }))
        .map_err(|e| err(&e))?;
    area.present().map_err(|e| err(&e))
}

/// A tick label without float noise: 1500, 12.5, 0.25, 0.003.
fn short_number(v: f64) -> String {
    let text = if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    };
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}
