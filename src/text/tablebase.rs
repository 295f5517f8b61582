//! What the endgame tables say about a position, in words.

use crate::tablebase::TbProbe;

/// Words for a probe: "win, mate in 10 moves (19 plies)".
pub fn describe(probe: &TbProbe) -> String {
    let mut text = probe.wdl.name().to_string();
    if let Some(dtm) = probe.dtm
        && dtm != 0
    {
        let plies = dtm.abs();
        let moves = (plies + 1) / 2;
        if dtm > 0 {
            text.push_str(&format!(", mate in {moves} moves ({plies} plies)"));
        } else {
            text.push_str(&format!(", mated in {moves} moves ({plies} plies)"));
        }
    }
    if let Some(dtz) = probe.dtz {
        text.push_str(&format!(", DTZ {dtz}"));
    }
    text
}
