//! Scripted random series for the statistics' tests, from a seeded
//! generator so that every run sees the same numbers.

/// A standard normal variate from two uniforms (Box–Muller).
pub(crate) fn normal(rng: &mut fastrand::Rng) -> f64 {
    let u = rng.f64().max(f64::MIN_POSITIVE);
    let v = rng.f64();
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

/// An AR(1) series of `k` values around `mean` with marginal standard
/// deviation `sd` and lag-1 correlation `rho`, started in its
/// stationary distribution.
pub(crate) fn ar1(rng: &mut fastrand::Rng, k: usize, rho: f64, mean: f64, sd: f64) -> Vec<f64> {
    let innovation = (1.0 - rho * rho).sqrt();
    let mut x = normal(rng);
    (0..k)
        .map(|i| {
            if i > 0 {
                x = rho * x + innovation * normal(rng);
            }
            mean + sd * x
        })
        .collect()
}
