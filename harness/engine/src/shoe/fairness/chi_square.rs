//! The chi-square arithmetic behind the fairness tests: the statistic and
//! its critical value, p-values, and the noncentrality a test needs for a
//! given power (Wilson–Hilferty and Patnaik approximations).

/// `Phi^-1(0.999)`: every test rejects at p = 0.001.
pub(super) const Z_999: f64 = 3.090_232_306_167_813;

/// A Pearson statistic, already divided by the scale that makes its null
/// distribution chi-square with `df` degrees of freedom.
#[derive(Clone, Copy, Debug)]
pub(super) struct ChiSquare {
    pub(super) statistic: f64,
    pub(super) df: f64,
}

impl ChiSquare {
    pub(super) fn critical(self) -> f64 {
        chi_square_quantile(self.df, Z_999)
    }

    pub(super) fn rejects(self) -> bool {
        self.statistic > self.critical()
    }

    pub(super) fn p_value(self) -> f64 {
        chi_square_upper_tail(self.statistic, self.df)
    }
}

impl std::fmt::Display for ChiSquare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "chi2 = {:.1}, df = {:.1}, critical (p = 0.001) = {:.1}, p = {:.3}",
            self.statistic,
            self.df,
            self.critical(),
            self.p_value()
        )
    }
}

/// Wilson–Hilferty: `(X / df)^(1/3)` is nearly normal with mean
/// `1 - 2 / (9 df)` and variance `2 / (9 df)`. Within 0.2 % of the exact
/// quantile from 36 degrees of freedom on, and slightly above it, so a test
/// errs towards passing a fair shuffle.
pub(super) fn chi_square_quantile(df: f64, z: f64) -> f64 {
    let v = 2.0 / (9.0 * df);
    df * (1.0 - v + z * v.sqrt()).powi(3)
}

/// `P(chi2_df > x)`, by Wilson–Hilferty.
fn chi_square_upper_tail(x: f64, df: f64) -> f64 {
    let v = 2.0 / (9.0 * df);
    let z = ((x / df).cbrt() - (1.0 - v)) / v.sqrt();
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// The complementary error function (Numerical Recipes' `erfcc`, relative
/// error below 1.2e-7), so that small p-values keep their digits.
fn erfc(x: f64) -> f64 {
    const C: [f64; 10] = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = C.iter().rev().fold(0.0, |acc, c| acc * t + c);
    let r = t * (-x * x + poly).exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The noncentrality a statistic with `df` degrees of freedom needs for a
/// test at p = 0.001 to reject with probability `power`. Patnaik: the
/// noncentral chi-square is about `h chi2_f`, matching mean and variance.
fn lambda_for_power(df: f64, power: f64) -> f64 {
    let critical = chi_square_quantile(df, Z_999);
    let power_at = |lambda: f64| {
        let h = (df + 2.0 * lambda) / (df + lambda);
        let f = (df + lambda).powi(2) / (df + 2.0 * lambda);
        chi_square_upper_tail(critical / h, f)
    };
    let (mut low, mut high) = (0.0, 10.0 * df + 1_000.0);
    for _ in 0..100 {
        let mid = 0.5 * (low + high);
        if power_at(mid) < power { low = mid } else { high = mid }
    }
    high
}

/// The smallest bias seen with 99.9 % power by a test with `df` degrees of
/// freedom, given the noncentrality a bias of 1 would add (`lambda` grows
/// with the square of the bias).
pub(super) fn smallest_bias(df: f64, lambda_at_one: f64) -> f64 {
    (lambda_for_power(df, 0.999) / lambda_at_one).sqrt()
}

#[test]
fn wilson_hilferty_matches_the_exact_quantiles() {
    // Exact quantiles at p = 0.001, from the incomplete gamma function.
    for (df, exact) in [(36.0, 67.985), (144.0, 202.184), (612.0, 725.836), (3732.0, 4004.688)] {
        let ours = chi_square_quantile(df, Z_999);
        assert!((ours - exact).abs() / exact < 0.002, "df {df}: {ours} vs {exact}");
    }
    assert!((chi_square_upper_tail(149.449, 100.0) - 0.001).abs() < 2e-5);
    assert!((chi_square_upper_tail(100.0, 100.0) - 0.4812).abs() < 2e-3);
}
