//! Periods in words: the relation, the theorem that proves it, and the check that was made —
//! what `grundy period` prints, kept beside the proofs it describes.

use crate::heap::Periodicity;
use crate::heap::period::{Period, PeriodReport, Proof, proof_needs};

impl Period {
    /// `G(n + p) = G(n) [+ s]`.
    ///
    /// ```
    /// use grundy::heap::period::Period;
    /// let period = Period { preperiod: 0, period: 7, saltus: 0, proved: true, checked_to: 11 };
    /// assert_eq!(period.relation(), "G(n + 7) = G(n)");
    /// ```
    pub fn relation(&self) -> String {
        let shift = format!("G(n + {}) = G(n)", self.period);
        if self.saltus == 0 { shift } else { format!("{shift} + {}", self.saltus) }
    }
}

impl Periodicity {
    /// The theorem, in words.
    pub fn theorem(self) -> String {
        match self {
            Periodicity::Octal { max_removal, max_parts: 2 } => format!(
                "periodicity theorem for octal games (Guy–Smith 1956; Winning Ways ch. 4), t = {max_removal} \
                 (the most tokens a move removes): period p from e is proved once G(n + p) = G(n) for all \
                 e' <= n < 2e' + p + t, e' = max(e, 1)"
            ),
            Periodicity::Octal { max_removal, max_parts } => format!(
                "periodicity theorem for take-and-break games leaving up to j = {max_parts} heaps (Guy–Smith \
                 1956; Howse–Nowakowski 2004), t = {max_removal} (the most tokens a move removes): period p \
                 from e is proved once G(n + p) = G(n) for all e' <= n < j·e' + (j - 1)·p + t, e' = max(e, 1)"
            ),
            Periodicity::Subtraction { max_take } => format!(
                "window argument for subtraction games: G(n) for n >= max S = {max_take} is the mex of values among \
                 the {max_take} before it, so once {max_take} consecutive values repeat, everything after repeats"
            ),
            Periodicity::Unproved => {
                "none: no periodicity theorem covers this game, so a period can only be observed, never proved"
                    .to_owned()
            }
        }
    }
}

impl PeriodReport {
    /// The report for a person: the period and its proof, or what was observed and what a
    /// proof would need. `spec` names the game, `method` the kernel that computed the values.
    pub fn explain(&self, spec: &str, method: &str) -> String {
        let mut text = String::new();
        match &self.proved {
            Some((period, proof)) => {
                text.push_str(&format!("{spec}: {period} (proved)\n"));
                text.push_str(&format!("  {} for every heap n >= {}\n", period.relation(), period.preperiod));
                let (e, p, last) = (period.preperiod, period.period, period.checked_to);
                let proof = match proof {
                    Proof::Octal { max_removal, max_parts, from, bound } => format!(
                        "{}\n  checked: G(n + {p}) = G(n) for all {from} <= n < {} = {bound}, on heaps 0..{last}",
                        self.periodicity.theorem(),
                        if *max_parts == 2 {
                            format!("2·{from} + {p} + {max_removal}")
                        } else {
                            format!("{max_parts}·{from} + {}·{p} + {max_removal}", max_parts - 1)
                        }
                    ),
                    Proof::Window { max_take } => format!(
                        "{}\n  checked: the {max_take} values G({e}..{}) repeat as G({}..{last}), on heaps 0..{last}",
                        self.periodicity.theorem(),
                        e + max_take - 1,
                        e + p
                    ),
                    Proof::ClosedForm { theorem } => {
                        format!("closed form {theorem}\n  checked against the values computed on heaps 0..{last}")
                    }
                };
                text.push_str(&format!("proof: {proof}\n"));
            }
            None => {
                text.push_str(&format!("{spec}: no period proved for heaps 0..{}\n", self.examined.saturating_sub(1)));
                text.push_str(&format!("theorem: {}\n", self.periodicity.theorem()));
                match &self.observed {
                    Some(observed) => {
                        let mut line = format!(
                            "observed, not proved: {observed}: {} holds for {} <= n <= {}",
                            observed.relation(),
                            observed.preperiod,
                            observed.checked_to - observed.period
                        );
                        match proof_needs(self.periodicity, observed.preperiod, observed.period) {
                            Some(needed) if observed.saltus == 0 => line.push_str(&format!(
                                "; if it goes on, a proof needs heaps 0..{needed} (try --max {needed})"
                            )),
                            _ if observed.saltus != 0 => line.push_str("; no theorem here proves an arithmetic period"),
                            _ => {}
                        }
                        text.push_str(&line);
                        text.push('\n');
                    }
                    None => text
                        .push_str("observed: no pattern G(n + p) = G(n) + s holds over the last half of the values\n"),
                }
            }
        }
        text.push_str(&format!("values computed by: {method}\n"));
        text
    }
}
