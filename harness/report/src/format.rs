//! How numbers and bots look on the page: chips with thousands
//! separators, signed nets, short axis labels, percentages, and each
//! bot's colour. Plain strings, so the HTML escapes them like any text.

/// A whole number with its thousands grouped: `1,234,567`.
pub fn whole(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// An integer with thousands separators; a true minus sign, since the
/// page is read, not parsed.
pub fn chips(n: i64) -> String {
    let out = whole(n.unsigned_abs());
    if n < 0 { format!("−{out}") } else { out }
}

/// [`chips`] with a `+` on gains, for nets.
pub fn signed(n: i64) -> String {
    if n > 0 { format!("+{}", chips(n)) } else { chips(n) }
}

/// A short axis label: 1.5k, 20M.
pub fn short(v: f64) -> String {
    let a = v.abs();
    let (x, suffix) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let s = if (x - x.round()).abs() < 1e-9 { format!("{}", x.round()) } else { format!("{x:.1}") };
    format!("{}{suffix}", s.replace('-', "−"))
}

/// A percentage of `part` in `whole`.
pub fn pct(part: u64, whole: u64) -> String {
    if whole == 0 { "–".into() } else { format!("{:.1} %", 100.0 * part as f64 / whole as f64) }
}

/// Bot `i`'s colour: hues spread by the golden angle, so neighbours in
/// the league's order never look alike.
pub fn colour(i: usize) -> String {
    let hue = (i as f64 * 137.508) % 360.0;
    format!("hsl({hue:.0},68%,{}%)", if (i / 7).is_multiple_of(2) { 40 } else { 30 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chips_group_thousands_and_keep_the_sign() {
        assert_eq!(chips(0), "0");
        assert_eq!(chips(999), "999");
        assert_eq!(chips(1_234_567), "1,234,567");
        assert_eq!(chips(-1000), "−1,000");
        assert_eq!(signed(1000), "+1,000");
    }

    #[test]
    fn short_labels_use_suffixes_and_a_true_minus() {
        assert_eq!(short(1500.0), "1.5k");
        assert_eq!(short(-20e6), "−20M");
        assert_eq!(short(0.0), "0");
    }
}
