//! The ranking of a map's squares into colour bands, and a weight written
//! in the few cells a square has.

/// Colour bands of the map, from the most weight (0: red) to the least
/// (5: dark blue), as Greer colours them.
pub const BANDS: usize = 6;

/// The squares with a positive value: a bit per square, a1 = bit 0.
pub(super) fn positive(values: &[i64; 64]) -> u64 {
    (0..64)
        .filter(|&i| values[i] > 0)
        .fold(0, |mask, i| mask | 1 << i)
}

/// The net view's bands: gains ranked among themselves into bands 0-2 (0
/// the most), losses among themselves into 3-5 (5 the most lost), so the
/// colour alone says which way a square went: red to yellow gained, light
/// to dark blue lost. A square at 0 is blank.
pub fn diverging_bands(values: &[i64; 64]) -> [Option<u8>; 64] {
    let gains = positive(values);
    let losses = (0..64)
        .filter(|&i| values[i] < 0)
        .fold(0u64, |mask, i| mask | 1 << i);
    let up = bands(values, gains);
    let negated: [i64; 64] = std::array::from_fn(|i| -values[i]);
    let down = bands(&negated, losses);
    std::array::from_fn(|i| match (up[i], down[i]) {
        (Some(band), _) => Some(band * 3 / BANDS as u8),
        // Bands of the losses from the most lost: 5, 4, 3.
        (_, Some(band)) => Some(5 - band * 3 / BANDS as u8),
        _ => None,
    })
}

/// Rank the squares of `banded` (a bit per square, a1 = bit 0) into
/// [`BANDS`] bands by their value's rank among them, so one huge square
/// does not push all the others into the last band; equal values share a
/// band, and the strongest share the first. The other squares get none: they are left blank.
pub fn bands(values: &[i64; 64], banded: u64) -> [Option<u8>; 64] {
    let in_band = |i: usize| banded & (1 << i) != 0;
    let mut sorted = [0i64; 64];
    let mut count = 0;
    for (i, &v) in values.iter().enumerate() {
        if in_band(i) {
            sorted[count] = v;
            count += 1;
        }
    }
    let sorted = &mut sorted[..count];
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let mut out = [None; 64];
    for (i, (band, &v)) in out.iter_mut().zip(values).enumerate() {
        if in_band(i) {
            // Equal values share the middle of the places they take
            // together: one square above eighteen equal ones leaves those
            // in the middle bands, not all at the top.
            let first = sorted.partition_point(|&s| s > v);
            let last = sorted.partition_point(|&s| s >= v) - 1;
            // The strongest squares are the top band however many tie
            // for it, so the key's "most" colour is on the board.
            *band = Some(match first {
                0 => 0,
                _ => ((first + last) * BANDS / (2 * count)) as u8,
            });
        }
    }
    out
}

/// A weight in at most `width` cells: 975, -975, 1.2k, -12k, 3.4M.
pub fn compact(value: i64, width: usize) -> String {
    let plain = value.to_string();
    if plain.len() <= width {
        return plain;
    }
    let sign = if value < 0 { "-" } else { "" };
    let magnitude = value.unsigned_abs() as f64;
    for (unit, scale) in [
        ("k", 1e3),
        ("M", 1e6),
        ("G", 1e9),
        ("T", 1e12),
        ("P", 1e15),
        ("E", 1e18),
    ] {
        let x = magnitude / scale;
        // "1000k" says less than "1.0M": each unit only under 1000.
        if x.round() >= 1000.0 {
            continue;
        }
        let tenths = format!("{sign}{x:.1}{unit}");
        if tenths.len() <= width && x < 999.95 {
            return tenths;
        }
        // "-0.1M" without its 0 still reads: -.1M.
        if x < 0.95 && tenths.len() == width + 1 && x >= 0.05 {
            return tenths.replacen("0.", ".", 1);
        }
        let whole = format!("{sign}{x:.0}{unit}");
        // "0M" would hide the value: only a unit it is at least 1 of.
        if whole.len() <= width && x.round() >= 1.0 {
            return whole;
        }
    }
    "#".repeat(width)
}
