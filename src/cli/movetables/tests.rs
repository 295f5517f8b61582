use super::*;
use crate::engine::movetables::TableUpdate;
use shakmaty::{Color, Move, Role};

#[test]
fn a_square_back_at_zero_is_written_0_not_never_considered() {
    let nf3 = vec![Move::Normal {
        role: Role::Knight,
        from: Square::G1,
        capture: None,
        to: Square::F3,
        promotion: None,
    }];
    let mut weights = TableWeights::default();
    for (line, others) in [(nf3.clone(), vec![]), (vec![], nf3)] {
        weights.apply(&TableUpdate {
            color: Color::White,
            line,
            others,
        });
    }
    let text = grid(&weights, TableId::new(Color::White, Role::Knight));
    let rank = |n: usize| text.lines().nth(9 - n).unwrap_or_default().to_string();
    assert_eq!(rank(1), "1   .  .  .  .  .  .  0  .", "{text}");
    assert_eq!(rank(3), "3   .  .  .  .  .  0  .  .", "{text}");
    assert_eq!(weights.gains_and_losses(), (2, 2));
}

#[test]
fn losses_are_said_beside_the_gains() {
    assert_eq!(ratio_words(4118, 22_774), "18% of the gains");
    assert_eq!(ratio_words(664_986, 22_774), "29 times the gains");
    assert_eq!(ratio_words(0, 0), "no gains");
}
